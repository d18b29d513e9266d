import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// is moved into place only once the whole body has arrived: on any failure or cancellation it
    /// is removed, and a file already at `destination` is left as it was. Every action stage runs,
    /// the status is validated (a failing one throws ``NetworkError/unacceptableStatusCode(_:)``
    /// with the first ``NetworkConfiguration/maximumErrorBodySize`` bytes of its body, and writes
    /// nothing), ``NetworkConfiguration/maximumResponseSize`` still applies, and the body is
    /// bounded by ``NetworkConfiguration/streamIdleTimeout``.
    ///
    /// - Throws: The send's ``NetworkError``, or a ``DownloadError`` when the file cannot be
    ///   written or moved.
    public func download<R: Request>(
        _ request: R,
        to destination: URL,
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        let stream = try await stream(request, priority: priority, progress: progress)
        return try await FileDownload.save(stream, to: destination)
    }

    /// Sends a raw request and writes its response body to the file at `destination`; see
    /// ``download(_:to:priority:progress:)-(R,_,_,_)``.
    public func download(
        _ request: NetworkRequest,
        to destination: URL,
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        let stream = try await stream(request, priority: priority, progress: progress)
        return try await FileDownload.save(stream, to: destination)
    }
}

/// A response body written to a file by ``Network/download(_:to:priority:progress:)-(R,_,_,_)``.
public struct DownloadedFile: Sendable {
    /// Where the body is: the destination asked for.
    public let fileURL: URL
    /// The response head: status, headers, the request as sent, timings. Its body is empty.
    public let response: NetworkResponse
    /// The length of the file, in bytes.
    public let byteCount: Int64
}

/// Why a downloaded body could not be put in its file.
public enum DownloadError: Error, Sendable, LocalizedError {
    /// The temporary file beside the destination could not be created.
    case cannotCreateFile(URL, errorCode: Int32)
    /// Writing the body failed (a full disk, say).
    case cannotWrite(URL, errorCode: Int32)
    /// The complete file could not be moved to the destination.
    case cannotMove(to: URL, errorCode: Int32)

    /// A description of the error.
    public var errorDescription: String? {
        switch self {
        case .cannotCreateFile(let url, let code):
            "A file for the download could not be created in \(url.deletingLastPathComponent().path): \(Self.reason(code))."
        case .cannotWrite(let url, let code):
            "The download could not be written to \(url.path): \(Self.reason(code))."
        case .cannotMove(let url, let code):
            "The download could not be moved to \(url.path): \(Self.reason(code))."
        }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// Writes a ``ResponseStream`` to a temporary file and moves it into place on success.
enum FileDownload {
    static func save(_ stream: ResponseStream, to destination: URL) async throws -> DownloadedFile {
        let directory = destination.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(destination.lastPathComponent).\(UUID().uuidString).download")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            stream.cancel()
            throw DownloadError.cannotCreateFile(temporary, errorCode: code)
        }
        var isClosed = false
        var isMoved = false
        defer {
            if !isClosed { close(descriptor) }
            if !isMoved { unlink(temporary.path) }
        }
        var byteCount: Int64 = 0
        for try await chunk in stream {
            try chunk.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        let code = errno
                        stream.cancel()
                        throw DownloadError.cannotWrite(temporary, errorCode: code)
                    }
                    offset += written
                }
            }
            byteCount += Int64(chunk.count)
        }
        isClosed = true
        guard close(descriptor) == 0 else { throw DownloadError.cannotWrite(temporary, errorCode: errno) }
        guard rename(temporary.path, destination.path) == 0 else {
            throw DownloadError.cannotMove(to: destination, errorCode: errno)
        }
        isMoved = true
        return DownloadedFile(fileURL: destination, response: stream.response, byteCount: byteCount)
    }
}
