import Foundation

extension Network {
    /// Sends a request and writes its response body to the file at `destination` as it arrives,
    /// replacing any file there, without holding the body in memory (over the transports the
    /// package ships; a ``Session`` of your own, such as a plain `URLSession`, hands over bodies
    /// whole).
    ///
    /// ```swift
    /// let file = try await network.download(ReportRequest(year: 2026), to: reportURL)
    /// print(file.byteCount, file.response.headers["Content-Type"] ?? "")
    /// ```
    ///
    /// The body goes to a temporary file beside `destination` (readable by the user alone), which
    /// is moved into place only once the whole body has arrived; a file already at `destination`
    /// is left as it was until then. Every action stage runs, the status is validated (a failing
    /// one throws ``NetworkError/unacceptableStatusCode(_:)`` with the first
    /// ``NetworkConfiguration/maximumErrorBodySize`` bytes of its body, and writes nothing),
    /// ``NetworkConfiguration/maximumResponseSize`` applies to each response, and the body is
    /// bounded by ``NetworkConfiguration/streamIdleTimeout``.
    ///
    /// A `206 Partial Content` answering a request that asked for no range is not saved as the
    /// file: a server or proxy that sends part of the body unasked would otherwise leave a file
    /// short of it, with no error. The download fails with
    /// ``DownloadError/unexpectedRange(expectedOffset:receivedOffset:)`` and keeps nothing, unless
    /// the `Content-Range` covers the whole body (`bytes 0-(n-1)/n`), which is then the file. A
    /// request that sets `Range` itself gets the part it asked for.
    ///
    /// A body that breaks part-way is resumed where it stopped when `options` and the server allow
    /// (a `Range` request with `If-Range`, so that a body that changed starts over), or kept for a
    /// later ``Network/download(_:resumingWith:options:priority:progress:)-(R,_,_,_,_)``: see
    /// ``DownloadOptions``. On cancellation, or any other failure, the temporary file is removed.
    ///
    /// The file is moved into place in one rename once its last byte is written, so that a crash
    /// of the process leaves the old file or the whole new one; with
    /// ``DownloadOptions/flushesToDisk`` it is flushed to the disk first, so that a power loss
    /// does too. All file work runs on a queue of its own, off the concurrency runtime's threads.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` before anything is sent when
    ///   `destination` is not a `file:` URL or is a directory; ``DownloadError/resumable(_:cause:)``
    ///   when the body broke and what arrived is kept;
    ///   ``DownloadError/unexpectedRange(expectedOffset:receivedOffset:)`` for a part of the body
    ///   nobody asked for; the send's ``NetworkError``; or another ``DownloadError`` when the file
    ///   cannot be written or moved.
    public func download<R: Request>(
        _ request: R,
        to destination: URL,
        options: DownloadOptions = DownloadOptions(),
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        try await download(request, to: .file(destination), options: options, priority: priority, progress: progress)
    }

    /// Sends a request and writes its response body to a file picked before the send or, with
    /// ``DownloadDestination/suggestedName(in:)`` and ``DownloadDestination/chosen(_:)``, once the
    /// head has arrived; otherwise as ``Network/download(_:to:options:priority:progress:)-(R,URL,_,_,_)``.
    ///
    /// ```swift
    /// let file = try await network.download(ReportRequest(year: 2026), to: .suggestedName(in: downloadsFolder))
    /// ```
    public func download<R: Request>(
        _ request: R,
        to destination: DownloadDestination,
        options: DownloadOptions = DownloadOptions(),
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        try await fileDownload(to: destination, options: options, progress: progress) { progress in
            try await self.stream(request, priority: priority, progress: progress)
        }.run(resumingWith: nil)
    }

    /// Sends a raw request and writes its response body to the file at `destination`; see
    /// ``Network/download(_:to:options:priority:progress:)-(R,URL,_,_,_)``.
    public func download(
        _ request: NetworkRequest,
        to destination: URL,
        options: DownloadOptions = DownloadOptions(),
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        try await download(request, to: .file(destination), options: options, priority: priority, progress: progress)
    }

    /// Sends a raw request and writes its response body to the file `destination` picks; see
    /// ``Network/download(_:to:options:priority:progress:)-(R,DownloadDestination,_,_,_)``.
    public func download(
        _ request: NetworkRequest,
        to destination: DownloadDestination,
        options: DownloadOptions = DownloadOptions(),
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        try await fileDownload(to: destination, options: options, progress: progress) { progress in
            try await self.stream(request, priority: priority, progress: progress)
        }.run(resumingWith: nil)
    }

    /// Fetches the rest of a body that broke part-way, into the partial file `resumeData` names,
    /// and moves the whole file to its ``ResumeData/destination``.
    ///
    /// Send the request that started the download. It goes out with `Range` (from the byte the
    /// partial file ends at) and `If-Range` (the body's validator): a `206` whose `Content-Range`
    /// starts there is appended; a `200`, which a server sends when the body changed, replaces
    /// what was kept and the download starts over; a `416` throws
    /// ``DownloadError/rangeNotSatisfiable(completeLength:)``. When the partial file is gone, or is
    /// not one the library could have written, the download starts over.
    ///
    /// ``DownloadedFile/resumedByteCount`` says how much of the file came from before.
    public func download<R: Request>(
        _ request: R,
        resumingWith resumeData: ResumeData,
        options: DownloadOptions = DownloadOptions(),
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        try await fileDownload(to: .file(resumeData.destination), options: options, progress: progress) { progress in
            try await self.stream(request, priority: priority, progress: progress)
        }.run(resumingWith: resumeData)
    }

    /// Fetches the rest of a raw request's body that broke part-way; see
    /// ``Network/download(_:resumingWith:options:priority:progress:)-(R,_,_,_,_)``.
    public func download(
        _ request: NetworkRequest,
        resumingWith resumeData: ResumeData,
        options: DownloadOptions = DownloadOptions(),
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        try await fileDownload(to: .file(resumeData.destination), options: options, progress: progress) { progress in
            try await self.stream(request, priority: priority, progress: progress)
        }.run(resumingWith: resumeData)
    }

    /// The download to `destination`, checked (and its folders made, when `options` ask) before
    /// anything is sent as far as it is known then, whose transfers `start` begins.
    private func fileDownload(
        to destination: DownloadDestination, options: DownloadOptions, progress: TransferProgressHandler?,
        start: @escaping @Sendable (TransferProgressHandler?) async throws -> ResponseStream
    ) throws -> FileDownload {
        if let file = destination.fixedURL {
            try FileDownload.prepare(file, options: options)
        } else if let folder = destination.knownFolder, options.createsIntermediateDirectories {
            guard folder.isFileURL else {
                throw NetworkError.invalidRequest(reason: "a download's destination must be a file URL")
            }
            try FileDownload.createFolder(folder)
        }
        let resumePolicy: RetryPolicy? =
            switch options.resumption {
            case .networkRetryPolicy: (self as? HTTPNetwork)?.configuration.retryPolicy
            case .policy(let policy): policy
            case .never: nil
            }
        return FileDownload(
            destination: destination, options: options, resumePolicy: resumePolicy, start: start, progress: progress)
    }
}

/// A response body written to a file by ``Network/download(_:to:options:priority:progress:)-(R,URL,_,_,_)``.
public struct DownloadedFile: Sendable {
    /// Where the body is: the destination asked for.
    public let fileURL: URL
    /// The response head: status, headers, the request as sent, timings. Its body is empty. For a
    /// resumed body, the head of the `206` that brought its end.
    public let response: NetworkResponse
    /// The length of the file, in bytes.
    public let byteCount: Int64
    /// How many of the file's bytes came from an earlier transfer that broke: 0 unless the body
    /// was resumed.
    public let resumedByteCount: Int64
}
