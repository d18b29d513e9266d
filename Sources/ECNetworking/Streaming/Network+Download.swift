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
    /// The file is flushed to the disk (`fsync`) before it is moved into place, and its folder
    /// after, so that a crash leaves the old file or the whole new one. All file work runs on a
    /// queue of its own, off the concurrency runtime's threads.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` before anything is sent when
    ///   `destination` is not a `file:` URL or is a directory; the send's ``NetworkError``; or a
    ///   ``DownloadError`` when the file cannot be written or moved.
    public func download<R: Request>(
        _ request: R,
        to destination: URL,
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        try FileDownload.checkDestination(destination)
        let stream = try await BodyReading.$isDownloading.withValue(true) {
            try await self.stream(request, priority: priority, progress: progress)
        }
        return try await FileDownload.save(stream, to: destination)
    }

    /// Sends a raw request and writes its response body to the file at `destination`; see
    /// ``Network/download(_:to:priority:progress:)-(R,_,_,_)``.
    public func download(
        _ request: NetworkRequest,
        to destination: URL,
        priority: RequestPriority = .normal,
        progress: TransferProgressHandler? = nil
    ) async throws -> DownloadedFile {
        try FileDownload.checkDestination(destination)
        let stream = try await BodyReading.$isDownloading.withValue(true) {
            try await self.stream(request, priority: priority, progress: progress)
        }
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
    /// How many bytes gather before they are handed to the file's queue: one hop per batch rather
    /// than per chunk, while the next batch arrives.
    static let batchSize = 256 * 1024

    /// Fails with ``NetworkError/invalidRequest(reason:)`` unless `destination` names a local
    /// file, before anything is sent: only its path would be used, so `https://host/tmp/x` would
    /// write `/tmp/x`. The URL is not in the reason, since it may carry a secret.
    /// A directory at the destination fails the same way, before the transfer rather than at its
    /// end, when the finished file could not replace it.
    static func checkDestination(_ destination: URL) throws {
        guard destination.isFileURL else {
            throw NetworkError.invalidRequest(reason: "a download's destination must be a file URL")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw NetworkError.invalidRequest(reason: "a download's destination is a directory, not a file")
        }
    }

    static func save(_ stream: ResponseStream, to destination: URL) async throws -> DownloadedFile {
        let file: DownloadFile
        do {
            file = try await DownloadFile.create(beside: destination)
        } catch {
            stream.stop(with: error)
            throw error
        }
        var byteCount: Int64 = 0
        var batch = Data()
        // The batch being written while the next one arrives; at most one, so memory stays bounded.
        var writing: Task<Void, any Error>?
        do {
            for try await chunk in stream {
                batch.append(chunk)
                byteCount += Int64(chunk.count)
                guard batch.count >= batchSize else { continue }
                try await writing?.value
                let full = batch
                batch = Data()
                writing = Task { try await file.write(full) }
            }
            try await writing?.value
            writing = nil
            if !batch.isEmpty { try await file.write(batch) }
            try await file.finish(movingTo: destination)
        } catch {
            // The body ends with the error the caller gets, which its observers hear too.
            stream.stop(with: error)
            // The write in flight ends before the file is removed from under it.
            _ = try? await writing?.value
            await file.discard()
            throw error
        }
        return DownloadedFile(fileURL: destination, response: stream.response, byteCount: byteCount)
    }
}

/// The temporary file a download writes, beside its destination (readable by the user alone).
///
/// Every call on the file (open, write, fsync, close, rename, unlink) runs on a queue of its own,
/// never on the concurrency runtime's threads, which a slow disk or a long fsync would hold.
final class DownloadFile: Sendable {
    private let queue: DispatchQueue
    private let url: URL
    /// The open file; `nil` once closed, so that no path closes it twice (its number may already
    /// belong to another file by then).
    private let descriptor: LockedState<Int32?>

    private init(queue: DispatchQueue, descriptor: Int32, url: URL) {
        self.queue = queue
        self.descriptor = LockedState(descriptor)
        self.url = url
    }

    /// The temporary file's name for a destination named `name`: hidden, unique, and within
    /// `NAME_MAX` (255 bytes) however long `name` is, which is shortened, on a character boundary,
    /// to leave room for the 47 bytes the rest takes.
    static func temporaryName(for name: String) -> String {
        let suffix = ".\(UUID().uuidString).download"
        let room = 255 - 1 - suffix.utf8.count
        var kept = Substring(name)
        while kept.utf8.count > room { kept.removeLast() }
        return "." + kept + suffix
    }

    /// A new, empty temporary file beside `destination`.
    static func create(beside destination: URL) async throws -> DownloadFile {
        let queue = DispatchQueue(label: "ECNetworking.DownloadFile")
        let url = destination.deletingLastPathComponent().appendingPathComponent(
            temporaryName(for: destination.lastPathComponent))
        return try await run(on: queue) {
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw DownloadError.cannotCreateFile(url, errorCode: errno) }
            return DownloadFile(queue: queue, descriptor: descriptor, url: url)
        }
    }

    /// Appends `data` to the file.
    func write(_ data: Data) async throws {
        try await Self.run(on: queue) { [self] in
            guard let descriptor = descriptor.withLock({ $0 }) else { return }
            if let code = writeAll(data, to: descriptor) { throw DownloadError.cannotWrite(url, errorCode: code) }
        }
    }

    /// Flushes the file to the disk, closes it and moves it to `destination`, then flushes the
    /// folder, so that after a crash `destination` holds the old file or the whole new one, never
    /// a renamed file whose bytes were still in memory. On failure the file is removed.
    func finish(movingTo destination: URL) async throws {
        try await Self.run(on: queue) { [self] in
            guard let descriptor = descriptor.withLock({ $0.take() }) else { return }
            var failure: DownloadError?
            if fsync(descriptor) != 0 { failure = .cannotWrite(url, errorCode: errno) }
            if close(descriptor) != 0, failure == nil { failure = .cannotWrite(url, errorCode: errno) }
            if failure == nil, rename(url.path, destination.path) != 0 {
                failure = .cannotMove(to: destination, errorCode: errno)
            }
            if let failure {
                unlink(url.path)
                throw failure
            }
            // The rename is durable once the folder is flushed too. Best effort: some file systems
            // refuse to flush a folder, and the file is already whole and in place.
            let folder = open(destination.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
            if folder >= 0 {
                _ = fsync(folder)
                close(folder)
            }
        }
    }

    /// Closes and removes the file, after a failure or cancellation; nothing once it was finished.
    func discard() async {
        _ = try? await Self.run(on: queue) { [self] in
            guard let descriptor = descriptor.withLock({ $0.take() }) else { return }
            close(descriptor)
            unlink(url.path)
        }
    }

    /// Runs `work` on `queue` and hands back its outcome.
    private static func run<Value: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result(catching: work)) }
        }
    }
}

/// Writes all of `data` to `descriptor`; the `errno` of the failure, if one.
private func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
    data.withUnsafeBytes { buffer -> Int32? in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}
