import Foundation

/// How far the upload of a request body, or the download of a response body, has come.
public struct TransferProgress: Sendable, Hashable {
    /// Which way the bytes go.
    public enum Direction: Sendable, Hashable {
        /// The request body, to the server.
        case upload
        /// The response body, from the server.
        case download
    }

    /// Which way the bytes go.
    public var direction: Direction
    /// The bytes transferred so far.
    public var completedByteCount: Int64
    /// The bytes expected in all, when known: the request body's length, or the response's
    /// `Content-Length` when the body is not compressed. Never less than
    /// ``completedByteCount``: a body that outgrows what was announced reports `nil` from then on.
    public var expectedByteCount: Int64?

    /// Creates a progress report.
    public init(direction: Direction, completedByteCount: Int64, expectedByteCount: Int64?) {
        self.direction = direction
        self.completedByteCount = completedByteCount
        self.expectedByteCount = expectedByteCount.flatMap { $0 >= completedByteCount ? $0 : nil }
    }

    /// The share done, from 0 to 1, when the total is known; 1 for an empty body.
    public var fractionCompleted: Double? {
        guard let expectedByteCount else { return nil }
        guard expectedByteCount > 0 else { return 1 }
        return min(1, Double(completedByteCount) / Double(expectedByteCount))
    }
}

/// Receives the ``TransferProgress`` of one send, upload and download, as the bytes move.
///
/// Pass one to `send(_:progress:)`, `stream(_:priority:progress:)` or
/// ``Network/download(_:to:priority:progress:)-(R,_,_,_)``. As a closure:
///
/// ```swift
/// let photo = try await network.send(UploadPhotoRequest(file: fileURL), progress: TransferProgressHandler { progress in
///     print(progress.direction, progress.completedByteCount, progress.fractionCompleted ?? 0)
/// })
/// ```
///
/// Or as an `AsyncSequence`, which finishes when the send ends:
///
/// ```swift
/// let (updates, handler) = TransferProgressHandler.makeStream()
/// async let photo = network.send(UploadPhotoRequest(file: fileURL), progress: handler)
/// for await progress in updates {
///     print(progress.fractionCompleted ?? 0)
/// }
/// ```
///
/// Reports come from the transport's threads, in order for each direction; the closure must be
/// quick and must not block. Upload progress comes from the transports the package ships (from a
/// ``Session`` passed in, only the download's); download progress comes from every transport.
public struct TransferProgressHandler: Sendable {
    private let report: @Sendable (TransferProgress) -> Void
    private let finish: (@Sendable () -> Void)?

    /// A handler that calls `report` with each progress.
    public init(_ report: @escaping @Sendable (TransferProgress) -> Void) {
        self.report = report
        self.finish = nil
    }

    /// A handler whose reports arrive on `updates`, which finishes when the send ends.
    ///
    /// - Parameter bufferingPolicy: What `updates` keeps when it is read slower than reports come;
    ///   by default the newest 64.
    public static func makeStream(
        bufferingPolicy: AsyncStream<TransferProgress>.Continuation.BufferingPolicy = .bufferingNewest(64)
    ) -> (updates: AsyncStream<TransferProgress>, handler: TransferProgressHandler) {
        let (updates, continuation) = AsyncStream.makeStream(
            of: TransferProgress.self, bufferingPolicy: bufferingPolicy)
        let handler = TransferProgressHandler(report: { continuation.yield($0) }, finish: { continuation.finish() })
        return (updates, handler)
    }

    private init(report: @escaping @Sendable (TransferProgress) -> Void, finish: @escaping @Sendable () -> Void) {
        self.report = report
        self.finish = finish
    }

    package func callAsFunction(_ progress: TransferProgress) {
        report(progress)
    }

    /// Tells the handler that the send ended, however it ended.
    package func sendEnded() {
        finish?()
    }
}

/// Carries a send's ``TransferProgressHandler`` in its request's custom properties, from the
/// public entry points to the transport step.
enum TransferProgressKey: CustomPropertyKey {
    static let defaultValue: TransferProgressHandler? = nil
}

/// Counts a response body's bytes for a ``TransferProgressHandler``.
struct DownloadProgressCounter: Sendable {
    let handler: TransferProgressHandler
    /// The `Content-Length`, when the body is not compressed (its length then is not the length of
    /// what arrives, after decompression).
    let expectedByteCount: Int64?

    init(handler: TransferProgressHandler, headers: HTTPHeaders) {
        self.handler = handler
        let encoding = headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased()
        let isCompressed = encoding.map { !$0.isEmpty && $0 != "identity" } ?? false
        self.expectedByteCount = isCompressed ? nil : headers["Content-Length"].flatMap { Int64($0) }
    }

    func received(totalBytes: Int64) {
        handler(
            TransferProgress(direction: .download, completedByteCount: totalBytes, expectedByteCount: expectedByteCount)
        )
    }
}
