import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request on a ``URLSessionTransport``'s session: it hands the head to the sender, then the
/// body chunk by chunk to its reader through a bounded buffer, and ends exactly once.
///
/// The session's task is made and started on the transport's serial control queue, never on the
/// sender's thread: FoundationNetworking's task creation and `resume()` wait for the session's
/// own queue, which a transfer can hold for seconds (libcurl inflating a large compressed body
/// runs there), and a Swift task that waited there would hold one of the concurrency runtime's
/// threads (two on a 2-core machine), stalling every task of the process.
///
/// Backpressure: when the reader falls more than ``highWaterMark`` bytes behind, the data task is
/// suspended, and it is resumed once the reader has drained the buffer to ``lowWaterMark`` (or a
/// download's receiver takes over).
/// Suspending, resuming and cancelling the task go to the same control queue, in the order they
/// were decided, because the session's delegate calls come from its own queue, which those task
/// methods wait for (see ``TransportDelegate``).
///
/// Not on Linux: FoundationNetworking's `suspend()` cannot pause a transfer in progress. It takes
/// libcurl's handle off the session (which halts the transfer, and adding it back starts it again),
/// and a chunk already on its way then stops the process ("Received body data, but no transfer in
/// progress"); measured here, a 48 MB body on loopback had completed before a suspension decided
/// at 1 MiB could even run. Blocking libcurl's callback instead would stall every request of the
/// process (FoundationNetworking's sessions share one queue). So on Linux the bytes past
/// ``highWaterMark`` go to a ``SpillFile`` instead, and the reader takes them back from there in
/// order: memory stays bounded however slow the reader, at the cost of a disk write for what it
/// fell behind by, up to the transport's `maximumSpillSize`, past which the exchange ends with
/// ``NetworkError/readerFellBehind(limit:)``.
///
/// The size limit is counted here as bytes arrive (after decompression), before a chunk is kept.
///
/// A download pushes instead of reading (see ``push(to:)``): once it has taken over, each chunk
/// goes to the download's receiver where it arrives, on the session's queue, and the receiver
/// writes it to the file there, as a hand-written delegate would. The disk's pace is then the
/// transfer's: nothing piles up behind a reader the machine is too busy to run, and no chunk is
/// written twice (once to a spill file, once to the download's). What arrives before the download
/// takes over (while the send's stages look at the head) is kept as a slow reader's bytes are,
/// and handed over first, off the session's queue; on Linux the transport gives such an exchange
/// spill settings of the download's own (see ``URLSessionTransport``).
///
/// Gathered (see ``GatheringTransport``), there is no reader: the exchange keeps every chunk and
/// hands the whole response to its completion handler when the transfer ends, never suspending it.
final class URLSessionExchange: SessionTask {
    /// How the exchange hands over what arrives.
    enum Delivery: Sendable {
        /// The head to ``head()``, then the body chunk by chunk to its reader.
        case streamed
        /// The response with its whole body to a completion handler, once the transfer has ended.
        case gathered(@Sendable (Result<TransportResponse, any Error>) -> Void)
    }

    /// How far the reader may fall behind before the transfer is suspended.
    static let highWaterMark = 1_048_576
    /// How far the reader must catch up before the transfer resumes.
    static let lowWaterMark = 262_144
    /// Whether a reader that falls behind suspends the transfer; see the type's comment.
    #if canImport(FoundationNetworking)
        static let suspendsForSlowReaders = false
    #else
        static let suspendsForSlowReaders = true
    #endif

    private typealias HeadHandoff = OneShotHandoff<
        UnsafeContinuation<TransportResponse, any Error>, Result<TransportResponse, any Error>, Void
    >

    private struct State {
        /// The session's task, once the control queue has made it (see ``start()``).
        var task: URLSessionDataTask?
        var head = HeadHandoff()
        /// Chunks received and not yet read.
        var chunks = ChunkQueue()
        var receivedBytes = 0
        /// How the transfer ended, once it has: `nil` for a body complete and read to its end.
        var ending: Result<Void, any Error>?
        /// The reader waiting for the next chunk.
        var reader: UnsafeContinuation<Data?, any Error>?
        /// Where each chunk goes as it arrives, once ``push(to:)`` has attached it; the chunks
        /// kept before go to it first, with the next one to arrive, so the order of the bytes
        /// holds.
        var receiver: ChunkReceiver?
        /// The push waiting for the body's end.
        var pushWaiter: UnsafeContinuation<Void, any Error>?
        var isSuspended = false
        /// The bytes that arrived while the reader was behind, newer than every chunk in `chunks`,
        /// on Linux (see the type's comment).
        var spill: SpillFile?

        var hasPendingChunk: Bool { !chunks.isEmpty || (spill?.unreadCount ?? 0) > 0 }

        /// The oldest bytes not yet read: a chunk kept in memory, or else a part of the spill file.
        mutating func takePending() -> Result<Data, any Error> {
            if !chunks.isEmpty { return .success(chunks.removeFirst()) }
            guard let data = spill?.read(upTo: URLSessionExchange.lowWaterMark) else {
                discardSpill()
                return .failure(NetworkError.transport(URLError(.cannotOpenFile)))
            }
            if spill?.unreadCount == 0 { discardSpill() }
            return .success(data)
        }

        mutating func discardSpill() {
            spill?.close()
            spill = nil
        }
    }

    /// The error of a spill file the disk refused to create or to write.
    private static let spillError = NetworkError.transport(URLError(.cannotCreateFile))

    /// A body the transport gives the session's task itself: on Apple platforms the file an
    /// upload task reads; on Linux a file's or a data body's bytes, read by the library (see
    /// ``OwnedRequestBody``).
    #if canImport(FoundationNetworking)
        typealias OwnedBody = OwnedRequestBody
    #else
        typealias OwnedBody = URL
    #endif

    /// What the control queue makes the session's task from (see ``start()``): the transport, the
    /// request, and the body it gives the task itself. Kept as they are rather than in a closure, which would cost an
    /// allocation per send.
    private let transport: URLSessionTransport
    private let urlRequest: URLRequest
    /// The body the transport gives the task itself, which on Linux the delegate asks for a new
    /// stream of the body, and for why it stopped the transfer.
    let ownedBody: OwnedBody?
    private let limit: Int?
    /// Where a spill file goes and how large it may grow (Linux only, see the type's comment).
    private let spillSettings: SpillFile.Settings
    private let delegate: TransportDelegate
    private let delivery: Delivery
    private let state = InlineLockedState(State())

    /// Who hears of the request body's bytes as the session sends them.
    let uploadProgress: TransferProgressHandler?
    /// The request body's length, when known: a session sending a stream does not know it.
    let uploadLength: Int64?

    init(
        sending urlRequest: URLRequest, ownedBody: OwnedBody?, on transport: URLSessionTransport, limit: Int?,
        delegate: TransportDelegate, delivery: Delivery, spillSettings: SpillFile.Settings = .default,
        uploadProgress: TransferProgressHandler? = nil, uploadLength: Int? = nil
    ) {
        self.transport = transport
        self.urlRequest = urlRequest
        self.ownedBody = ownedBody
        self.limit = limit
        self.spillSettings = spillSettings
        self.delegate = delegate
        self.delivery = delivery
        self.uploadProgress = uploadProgress
        self.uploadLength = uploadLength.map(Int64.init)
    }

    /// Whether the body goes to a reader chunk by chunk.
    private var isStreamed: Bool {
        if case .streamed = delivery { return true }
        return false
    }

    /// Makes the session's task and starts it, on the control queue (see the type's comment); an
    /// exchange that ended first (it was cancelled) sends nothing, and one whose transport was
    /// invalidated ends with ``NetworkError/invalidated``.
    private func start() {
        delegate.control { [self] in
            guard state.withLock({ $0.ending == nil }) else { return }
            guard let task = transport.task(for: urlRequest, ownedBody: ownedBody) else {
                end(with: .failure(NetworkError.invalidated))?.resume(with: NetworkError.invalidated)
                return
            }
            // Registered before it is attached, so that an exchange that ends from now on finds the
            // entry to remove; one that ended meanwhile leaves the task to be cancelled here.
            delegate.register(self, for: task)
            let isAttached = state.withLock { state -> Bool in
                guard state.ending == nil else { return false }
                state.task = task
                return true
            }
            if isAttached {
                task.resume()
            } else {
                delegate.forget(task)
                task.cancel()
            }
        }
    }

    // MARK: - Gathered

    /// Starts a gathered exchange.
    func resume() {
        start()
    }

    /// Ends a gathered exchange with ``NetworkError/cancelled`` and drops its transfer.
    func cancel() {
        stop(with: NetworkError.cancelled)
    }

    /// The number of body bytes received and not yet read.
    var bufferedBytes: Int { state.withLock { $0.chunks.byteCount } }

    // MARK: - The sender and the reader

    /// Starts the task and waits for the head; cancelling the calling task ends the exchange.
    func head() async throws -> TransportResponse {
        try await withTaskCancellationHandler {
            // Started before the wait, not from inside it: a head that arrives first is kept in the
            // handoff, under its lock, and taken here on this thread. Started from inside, a fast
            // head could resume the continuation before this task has suspended, a handover that
            // ThreadSanitizer cannot see.
            if !Task.isCancelled { start() }
            // Unchecked: the head handoff resumes it once, under the lock.
            let head = try await withUnsafeThrowingContinuation { continuation in
                if let early = state.withLock({ $0.head.wait(continuation) }) {
                    continuation.resume(with: early)
                }
            }
            // A head that came while this task was still suspending is handed over by the
            // runtime's atomics, which ThreadSanitizer does not model (swiftlang/swift#57803): it
            // reported the body reader made with the head, under the lock on the delegate's
            // thread, as racing with this task's first read of it. Taking the lock once after the
            // wait orders the two for it as well; it costs one uncontended lock per streamed head.
            state.withLock { _ in }
            return head
        } onCancel: {
            stop(with: NetworkError.cancelled)
        }
    }

    /// The next chunk of the body, or `nil` at its end.
    fileprivate func nextChunk() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let result = state.withLock { state -> Result<Data?, any Error>? in
                    if state.hasPendingChunk {
                        let chunk = state.takePending()
                        if state.isSuspended && state.chunks.byteCount <= Self.lowWaterMark { resumeTask(in: &state) }
                        return chunk.map { $0 }
                    }
                    switch state.ending {
                    case .success?: return .success(nil)
                    case .failure(let error)?: return .failure(error)
                    case nil:
                        state.reader = continuation
                        return nil
                    }
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            stop(with: NetworkError.cancelled)
        }
    }

    /// Hands every chunk of the body to `receiver`, in order, and returns at the body's end, or
    /// throws its error; cancelling the calling task ends the exchange. Each chunk that arrives
    /// once the push has taken over goes to `receiver` on the session's queue (see the type's
    /// comment). What was kept before this call is handed over first, off the session's queue and
    /// the concurrency runtime's threads, while newer chunks are kept after it (see
    /// ``drain(to:)``): handed over inside the session's callback, a backlog as large as a long
    /// wait at the head let in would hold every FoundationNetworking transfer of the process back
    /// while it was copied. A chunk `receiver` throws for ends the exchange with that error and
    /// drops the transfer.
    fileprivate func push(to receiver: @escaping ChunkReceiver) async throws {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let start = state.withLock { state -> PushStart in
                    state.pushWaiter = continuation
                    // An exchange that ended drains too: what was kept goes over, then the push
                    // hears of the end (see ``drain(to:)``).
                    guard state.ending == nil, !state.hasPendingChunk else { return .draining }
                    attach(receiver, in: &state)
                    return .attached
                }
                switch start {
                case .draining: DispatchQueue.global().async { self.drain(to: receiver) }
                case .attached: break
                }
            }
        } onCancel: {
            stop(with: NetworkError.cancelled)
        }
    }

    /// How ``push(to:)`` starts.
    private enum PushStart {
        /// Chunks were kept, or the exchange had ended: what was kept goes over first (see
        /// ``drain(to:)``).
        case draining
        /// Nothing was kept: the next chunk goes to the receiver where it arrives.
        case attached
    }

    /// Makes `receiver` take each chunk where it arrives; the transfer, if paused for a reader
    /// that fell behind, goes on.
    private func attach(_ receiver: @escaping ChunkReceiver, in state: inout State) {
        state.receiver = receiver
        if state.isSuspended { resumeTask(in: &state) }
    }

    /// Hands what was kept before a push to `receiver`, oldest first, as a reader would read it
    /// (newer chunks are kept after it meanwhile, in memory, then in the spill file), and attaches
    /// `receiver` under the lock once nothing is left, so that the next chunk goes to it where it
    /// arrives and the order holds. Runs on a dispatch queue of its own, off the session's queue.
    private func drain(to receiver: @escaping ChunkReceiver) {
        while true {
            let step = state.withLock { state -> DrainStep in
                if state.hasPendingChunk {
                    let chunk = state.takePending()
                    if state.isSuspended && state.chunks.byteCount <= Self.lowWaterMark { resumeTask(in: &state) }
                    return .chunk(chunk)
                }
                // Ended with nothing left: the push hears of it here, as no one else will.
                if let ending = state.ending { return .ended(ending, state.pushWaiter.take()) }
                // From here on the exchange's end tells the push (see `end(with:)`).
                attach(receiver, in: &state)
                return .attached
            }
            switch step {
            case .chunk(.success(let data)):
                do {
                    try receiver(data)
                } catch {
                    return abandonPush(with: error)
                }
            case .chunk(.failure(let error)):
                return abandonPush(with: error)
            case .ended(let outcome, let waiter):
                waiter?.resume(with: outcome)
                return
            case .attached:
                return
            }
        }
    }

    /// What ``drain(to:)`` does next.
    private enum DrainStep {
        case chunk(Result<Data, any Error>)
        case ended(Result<Void, any Error>, UnsafeContinuation<Void, any Error>?)
        case attached
    }

    /// Ends the exchange with `error`, a push's receiver's or its backlog's, and tells the push.
    private func abandonPush(with error: any Error) {
        stop(with: error)
        state.withLock { $0.pushWaiter.take() }?.resume(throwing: error)
    }

    /// Pauses the transfer for a reader that fell behind (Apple platforms; see the type's comment).
    /// Queued on the control queue under the state's lock, as ``resumeTask(in:)`` is, so the two
    /// reach the task in the order they were decided: queued after the lock, a pause decided just
    /// before a resume could run after it and hold the transfer for good.
    private func suspendTask(in state: inout State) {
        state.isSuspended = true
        guard let task = state.task else { return }
        delegate.control { task.suspend() }
    }

    /// Lets a paused transfer go on; see ``suspendTask(in:)``.
    private func resumeTask(in state: inout State) {
        state.isSuspended = false
        guard let task = state.task else { return }
        delegate.control { task.resume() }
    }

    /// Ends the exchange with `error` unless the transfer already ended: the sender or the reader
    /// gave up (cancellation, or the body stream was let go). The task is forgotten by the
    /// delegate first, then cancelled, so its late callbacks are ignored.
    func stop(with error: any Error) {
        guard let waiters = end(with: .failure(error)) else {
            // A body that arrived whole but was let go unread: what waits for the reader goes.
            state.withLock { state in
                state.discardSpill()
                _ = state.chunks.removeAll()
            }
            return
        }
        // Without a task yet, the control queue has not made it, and will not start it.
        if let task = state.withLock({ $0.task }) {
            delegate.forget(task)
            delegate.control { task.cancel() }
        }
        waiters.resume(with: error)
    }

    // MARK: - The delegate's events, on the session's queue

    /// What the delegate must do after a chunk.
    enum ChunkDecision {
        case none
        /// The chunk crossed the limit: the exchange has ended; forget and cancel the task.
        case overLimit
        /// The chunk could not be kept: the reader is behind and the spill file could not take it
        /// (the disk refused it, or it would pass the spill limit), or a push's receiver threw.
        /// The exchange has ended with the error; forget and cancel the task, as over the limit.
        case failed(any Error)
    }

    /// The head arrived. A gathered exchange takes it from the completed task instead.
    func receive(_ response: HTTPURLResponse) {
        guard isStreamed else { return }
        let delivery = state.withLock { state -> (HeadHandoff.Ending, TransportResponse)? in
            // The body's reader is made only for the one head that is delivered: letting go of
            // another would stop the exchange.
            guard !state.head.isFinished else { return nil }
            let head = TransportResponse(response, body: ByteStream(reading: BodyReader(self)))
            return state.head.finish(.success(head)).map { ($0, head) }
        }
        guard let (ending, head) = delivery else { return }
        ending.waiter?.resume(returning: head)
    }

    /// A chunk of the body arrived.
    func receive(_ data: Data) -> ChunkDecision {
        let limit = limit
        let (decision, handoff) = state.withLock { state -> (ChunkDecision, ChunkHandoff?) in
            guard state.ending == nil else { return (.none, nil) }
            state.receivedBytes += data.count
            if let limit, state.receivedBytes > limit {
                // The chunk that crosses the limit is never kept, so the body never exceeds it.
                return (.overLimit, nil)
            }
            // A receiver is attached only once nothing is kept (see `drain(to:)`), so it takes this chunk
            // alone.
            if let receiver = state.receiver { return (.none, .receiver(receiver)) }
            if let reader = state.reader {
                state.reader = nil
                return (.none, .reader(reader))
            }
            if state.spill != nil {
                // Once bytes are in the file, newer ones follow them there, so order is kept.
                switch state.spill!.append(data) {
                case .appended: return (.none, nil)
                case .overLimit: return (.failed(NetworkError.readerFellBehind(limit: spillSettings.limit)), nil)
                case .failed: return (.failed(Self.spillError), nil)
                }
            }
            state.chunks.append(data)
            guard isStreamed, !state.isSuspended, state.chunks.byteCount > Self.highWaterMark else {
                return (.none, nil)
            }
            guard Self.suspendsForSlowReaders else {
                state.spill = SpillFile(spillSettings)
                return (state.spill == nil ? .failed(Self.spillError) : .none, nil)
            }
            suspendTask(in: &state)
            return (.none, nil)
        }
        switch (handoff, decision) {
        case (.reader(let reader)?, _):
            reader.resume(returning: data)
        case (.receiver(let receiver)?, _):
            do {
                try receiver(data)
            } catch {
                end(with: .failure(error))?.resume(with: error)
                return .failed(error)
            }
        case (nil, .overLimit):
            guard let limit else { break }
            let error = NetworkError.responseTooLarge(limit: limit)
            end(with: .failure(error))?.resume(with: error)
        case (nil, .failed(let error)):
            end(with: .failure(error))?.resume(with: error)
        default:
            break
        }
        return decision
    }

    /// Who takes a chunk that arrives: the reader waiting for it, or a push's receiver.
    private enum ChunkHandoff {
        case reader(UnsafeContinuation<Data?, any Error>)
        case receiver(ChunkReceiver)
    }

    /// The transfer ended: completely when `error` is `nil`. `response` is the head, for a
    /// response whose head the session never announced on its own (a redirect it declined).
    func complete(response: URLResponse?, error: (any Error)?) {
        if case .gathered(let completion) = delivery {
            completeGathered(response: response, error: error, completion: completion)
            return
        }
        if error == nil, let response = response as? HTTPURLResponse {
            receive(response)
        }
        let outcome: Result<Void, any Error> = error.map { .failure($0) } ?? .success(())
        // A transfer that broke still hands over what arrived before the break, then the error.
        guard let waiters = end(with: outcome, keepingUnreadBytes: true) else { return }
        switch outcome {
        case .success: waiters.finish()
        case .failure(let error): waiters.resume(with: error)
        }
    }

    /// Hands a gathered exchange's response, with every chunk it kept, to `completion`.
    private func completeGathered(
        response: URLResponse?, error: (any Error)?,
        completion: @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        let outcome: Result<Void, any Error> = error.map { .failure($0) } ?? .success(())
        guard let waiters = end(with: outcome) else { return }
        if let error {
            completion(.failure(error))
        } else if let response = response as? HTTPURLResponse {
            completion(.success(TransportResponse(response, body: ByteStream(Self.joined(waiters.chunks)))))
        } else {
            completion(.failure(NetworkError.invalidResponse))
        }
    }

    /// `chunks` as one `Data`, copied only when there is more than one.
    private static func joined(_ chunks: ArraySlice<Data>) -> Data {
        guard chunks.count > 1 else { return chunks.first ?? Data() }
        var body = Data()
        body.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for chunk in chunks { body.append(chunk) }
        return body
    }

    /// Whom to tell when the exchange ends.
    private struct Waiters {
        var head: UnsafeContinuation<TransportResponse, any Error>?
        var reader: UnsafeContinuation<Data?, any Error>?
        var push: UnsafeContinuation<Void, any Error>?
        /// A gathered exchange's completion handler, told of a failure.
        var completion: (@Sendable (Result<TransportResponse, any Error>) -> Void)?
        /// Every chunk a gathered exchange kept, when it ended complete.
        var chunks: ArraySlice<Data> = []

        func resume(with error: any Error) {
            head?.resume(throwing: error)
            reader?.resume(throwing: error)
            push?.resume(throwing: error)
            completion?(.failure(error))
        }

        func finish() {
            head?.resume(throwing: NetworkError.invalidResponse)
            reader?.resume(returning: nil)
            push?.resume()
        }
    }

    /// Records the ending, unless there is one already; returns whom to tell, or `nil` when the
    /// exchange had ended before. A failure releases the bytes not yet read unless
    /// `keepingUnreadBytes`, when the reader gets them before the error.
    private func end(with outcome: Result<Void, any Error>, keepingUnreadBytes: Bool = false) -> Waiters? {
        state.withLock { state -> Waiters? in
            guard state.ending == nil else { return nil }
            state.ending = outcome
            var waiters = Waiters()
            if case .gathered(let completion) = delivery {
                // The body goes to the completion handler whole, so nothing is left to read.
                let chunks = state.chunks.removeAll()
                if case .success = outcome { waiters.chunks = chunks }
                waiters.completion = completion
                return waiters
            }
            if case .failure = outcome, !keepingUnreadBytes {
                // Bytes nobody will read are released at once.
                _ = state.chunks.removeAll()
                state.discardSpill()
            }
            let error: any Error
            switch outcome {
            case .failure(let failure): error = failure
            case .success: error = NetworkError.invalidResponse
            }
            waiters.head = state.head.finish(.failure(error))?.waiter
            waiters.reader = state.reader
            state.reader = nil
            // A push's receiver is attached only once nothing is kept (see ``drain(to:)``), so an
            // attached push hears of the end now; one still draining hears of it from the drain.
            if state.receiver != nil {
                waiters.push = state.pushWaiter.take()
            }
            return waiters
        }
    }
}

/// The body stream's hold on an exchange: when the stream is let go before its end (a redirect's
/// body, a reader that stopped), the exchange is stopped, so no transfer is left running, nor
/// suspended for ever with a full buffer.
private final class BodyReader: Sendable {
    let exchange: URLSessionExchange

    init(_ exchange: URLSessionExchange) {
        self.exchange = exchange
    }

    deinit {
        exchange.stop(with: NetworkError.cancelled)
    }
}

extension ByteStream {
    /// The body of `reader`'s exchange, which a download may have pushed to it instead.
    fileprivate init(reading reader: BodyReader) {
        self.init(
            next: { try await reader.exchange.nextChunk() },
            push: { try await reader.exchange.push(to: $0) })
    }
}
