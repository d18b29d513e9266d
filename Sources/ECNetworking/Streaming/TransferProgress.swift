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
/// ``Network/download(_:to:options:priority:progress:)-(R,URL,_,_,_)``. As a closure:
///
/// ```swift
/// let photo = try await network.send(UploadPhotoRequest(photo: photoURL, caption: "Sunset"), progress: TransferProgressHandler { progress in
///     print(progress.direction, progress.completedByteCount, progress.fractionCompleted ?? 0)
/// })
/// ```
///
/// Or as an `AsyncSequence`, which finishes when the send ends:
///
/// ```swift
/// let (updates, handler) = TransferProgressHandler.makeStream()
/// async let photo = network.send(UploadPhotoRequest(photo: photoURL, caption: "Sunset"), progress: handler)
/// for await progress in updates {
///     print(progress.fractionCompleted ?? 0)
/// }
/// ```
///
/// Reports come from the transport's threads, in order for each direction; the closure must be
/// quick and must not block (over `URLSessionTransport` a download's reports come from
/// FoundationNetworking's own thread, which every transfer of the process shares). Upload
/// progress comes from the transports the package ships as the bytes go, and from a ``Session``
/// passed in once, whole, when it answers; download progress comes from every transport.
///
/// The figure belongs to the send, not to one attempt, and never goes back: a retry, a token
/// refresh or a redirect that sends the request body again is reported only once its bytes pass
/// what was reported before, so each direction's ``TransferProgress/completedByteCount`` rises
/// and its ``TransferProgress/fractionCompleted`` never falls, and the last report of a complete
/// transfer, its total over its total, comes once. The body of a response whose status is not
/// acceptable (an error page, a 503 about to be retried) is not counted, nor is a redirect's. A
/// response that completed actions retry after its body arrived stays counted; the next attempt
/// shows once it passes it. Nothing is reported after the send ended.
///
/// A ``Network`` of your own reports with ``report(_:)`` and calls ``finish()`` when the send
/// ends, so that the stream of ``makeStream(bufferingPolicy:)`` finishes.
public struct TransferProgressHandler: Sendable {
    private let onReport: @Sendable (TransferProgress) -> Void
    private let onFinish: (@Sendable () -> Void)?

    /// A handler that calls `report` with each progress.
    public init(_ report: @escaping @Sendable (TransferProgress) -> Void) {
        self.onReport = report
        self.onFinish = nil
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

    private init(report: @escaping @Sendable (TransferProgress) -> Void, finish: (@Sendable () -> Void)?) {
        self.onReport = report
        self.onFinish = finish
    }

    /// Hands `progress` to the handler as it is: for a ``Network`` of your own that moves the
    /// bytes itself. Call it from any thread, in order for each direction, and keep to the rule
    /// the library's networks keep (see ``TransferProgressHandler``): never a smaller figure than
    /// one reported before in the same direction.
    public func report(_ progress: TransferProgress) {
        onReport(progress)
    }

    /// Tells the handler that its send ended, however it ended: the stream of
    /// ``makeStream(bufferingPolicy:)`` finishes, and a closure handler is not affected. A
    /// ``Network`` of your own calls it once the send returned or threw, and for a stream once
    /// its body ended; calling it again does nothing.
    public func finish() {
        onFinish?()
    }

    package func callAsFunction(_ progress: TransferProgress) {
        onReport(progress)
    }

    /// This handler, for one send: reports that would take a direction's figure back, or come
    /// after the send ended, are dropped (the rule in ``TransferProgressHandler``'s comment).
    func forOneSend() -> TransferProgressHandler {
        let figures = LockedState(SendProgressFigures())
        return TransferProgressHandler(
            report: { progress in
                // Each direction has one producer at a time (the transport's upload callbacks, the
                // body relay), so the order checked here is the order delivered in.
                guard figures.withLock({ $0.admits(progress) }) else { return }
                onReport(progress)
            },
            finish: {
                guard figures.withLock({ $0.finish() }) else { return }
                onFinish?()
            })
    }
}

/// What one send reported last in each direction, so that no report takes its figure back.
private struct SendProgressFigures: Sendable {
    var upload: TransferProgress?
    var download: TransferProgress?
    var isFinished = false

    /// Whether `progress` moves its direction forward, noting it if so.
    mutating func admits(_ progress: TransferProgress) -> Bool {
        guard !isFinished else { return false }
        let last = progress.direction == .upload ? upload : download
        if let last {
            guard progress.completedByteCount > last.completedByteCount else { return false }
            // A later attempt with a larger total shows once its share catches up.
            if let fraction = progress.fractionCompleted, let lastFraction = last.fractionCompleted,
                fraction < lastFraction
            {
                return false
            }
        }
        switch progress.direction {
        case .upload: upload = progress
        case .download: download = progress
        }
        return true
    }

    /// Marks the send ended; `false` if it already was.
    mutating func finish() -> Bool {
        defer { isFinished = true }
        return !isFinished
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
