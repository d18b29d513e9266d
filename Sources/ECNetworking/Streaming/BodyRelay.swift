import Foundation

/// Carries a streamed response body from its transport to the one task that consumes it, one chunk
/// at a time, and ends exactly once: at the body's end, on the transport's error, when the
/// body has been idle too long, or when the consumer stops (cancels its task, lets the stream go,
/// or the send is cancelled).
///
/// The body is read by a task of the relay's own rather than by the consumer directly, so that the
/// idle timeout and a cancellation from outside (`cancelAll`, ``Network/invalidate()``) end the
/// transfer at once even while the transport waits for bytes: ending the relay cancels that task,
/// which is how every transport learns to drop the connection. The task starts on the first read,
/// so a stream that is never read costs no task.
///
/// Backpressure: the relay is a handoff, not a buffer. Its reading task holds at most one chunk
/// the consumer has not taken, and asks the transport for the next only once the consumer takes it,
/// so the one buffer between the wire and the consumer is the transport's own (a
/// `URLSessionTransport` exchange's 1 MiB, async-http-client's few buffers of backpressure): a
/// second one here would double what a paused consumer holds in memory for no gain, since the
/// transport's buffer already keeps the socket read while the consumer works. The transport, read
/// no further, stops reading from the socket.
///
/// The idle timer measures the server's silence, not the consumer's: it never fires while bytes
/// wait unread, or while a pushed chunk is being written. Armed once per timeout period rather
/// than once per chunk, it re-arms itself for what is left after the latest chunk.
final class BodyRelay: DeadlineTarget, Sendable {
    private struct State: Sendable {
        /// The transport's body, until the reading task takes it or the relay ends: let go of, it
        /// tells the transport to drop the connection, however the relay and its reader ended.
        var source: ByteStream?
        /// The chunk read from the transport and not yet taken by the consumer: at most one.
        var pending: Data?
        /// Whether a pushed chunk is with its receiver (a download writing it) or its observers:
        /// the consumer's time, like a pending chunk's, not the server's silence.
        var isDelivering = false
        var receivedBytes: Int64 = 0
        /// How the body ended, once it has: `.success` for a body read to its end by the relay.
        var ending: Result<Void, any Error>?
        var hasStarted = false
        var reader: Task<Void, Never>?
        /// The consumer, waiting for the next chunk.
        var consumer: UnsafeContinuation<Data?, any Error>?
        /// The reading task, waiting for room in the buffer.
        var producer: UnsafeContinuation<Void, Never>?
        var idleDeadline: DeadlineScheduler.Token?
        /// When the latest chunk arrived, for the idle timer.
        var lastActivity: ContinuousClock.Instant
        /// Called once when the relay ends, whichever way.
        var endHandlers: [@Sendable (BodyEnd) -> Void] = []
        /// Set while the end handlers run, before `ending` is: whoever ends the relay first.
        var isEnding = false
        /// How the relay ended, for a handler added after: set with `isEnding`.
        var end: BodyEnd?
        var idleTimeout: Duration?
        var progress: DownloadProgressCounter?
        /// Told of every chunk as it arrives, in order: a recorder keeping the body.
        var chunkObservers: [@Sendable (Data) -> Void] = []
        /// The error the relay was stopped with from outside, once it has been (see
        /// ``stopError``).
        var stopError: (any Error)?

    }

    private let state: InlineLockedState<State>

    /// A relay of `source`, which is not read until the consumer first asks for a chunk.
    init(_ source: ByteStream) {
        state = InlineLockedState(State(source: source, lastActivity: ContinuousClock.now))
    }

    /// Sets what the network decides once it has the head, before the body is read.
    ///
    /// - Parameters:
    ///   - idleTimeout: How long the body may go without a byte before it fails with
    ///     ``NetworkError/timedOut(after:)``; `nil` for no limit.
    ///   - progress: Told of every chunk that arrives.
    ///   - onEnd: Called exactly once, when the relay ends; at once if it has ended already.
    func configure(
        idleTimeout: Duration?, progress: DownloadProgressCounter?, onEnd: @escaping @Sendable (BodyEnd) -> Void
    ) {
        state.withLock { state in
            state.idleTimeout = idleTimeout
            state.progress = progress
        }
        whenEnded(onEnd)
    }

    /// Calls `observer` with every chunk that arrives from now on, in order, before the consumer
    /// gets it; with ``whenEnded(_:)``, what a recorder needs to keep the body as it was read.
    func observeChunks(_ observer: @escaping @Sendable (Data) -> Void) {
        state.withLock { $0.chunkObservers.append(observer) }
    }

    /// Calls `handler` once when the relay ends, with how it ended; at once if it has ended
    /// already. Handlers run before a consumer waiting for the next chunk hears of the end.
    func whenEnded(_ handler: @escaping @Sendable (BodyEnd) -> Void) {
        let ended = state.withLock { state -> BodyEnd? in
            guard state.isEnding else {
                state.endHandlers.append(handler)
                return nil
            }
            return state.end
        }
        if let ended { handler(ended) }
    }

    // MARK: - The consumer

    /// The next chunk, or `nil` at the body's end; cancelling the calling task ends the relay.
    func next() async throws -> Data? {
        if Task.isCancelled { stop(with: NetworkError.cancelled) }
        startIfNeeded()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let (result, producer) = state.withLock {
                    state -> (Result<Data?, any Error>?, UnsafeContinuation<Void, Never>?) in
                    if let chunk = state.pending.take() {
                        // The chunk taken, the reading task may fetch the next one.
                        return (.success(chunk), state.producer.take())
                    }
                    switch state.ending {
                    case .success?: return (.success(nil), nil)
                    case .failure(let error)?: return (.failure(error), nil)
                    case nil:
                        state.consumer = continuation
                        return (nil, nil)
                    }
                }
                producer?.resume()
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            stop(with: NetworkError.cancelled)
        }
    }

    /// Hands every chunk to `receiver` where the transport delivers it, when the transport can
    /// (see ``ByteStream/push(to:)``), and returns `true` at the body's end, or throws its error;
    /// returns `false` at once, reading nothing, when the transport cannot or the body is being
    /// read already. Observers, progress and the idle timer hear of each chunk as they do when it
    /// is read, once `receiver` has taken it; cancelling the calling task ends the relay.
    func push(to receiver: @escaping ChunkReceiver) async throws -> Bool {
        if Task.isCancelled { stop(with: NetworkError.cancelled) }
        let source = state.withLock { state -> ByteStream? in
            guard Self.isPushable(state) else { return nil }
            state.hasStarted = true
            state.lastActivity = ContinuousClock.now
            return state.source.take()
        }
        guard let source else { return false }
        let pushing = start { await self.push(source, to: receiver) }
        do {
            // Nothing is kept for a consumer: waiting as one, this wakes at the relay's end.
            _ = try await next()
        } catch {
            // Stopped from outside: the pushing task, cancelled, may still be in `receiver` with a
            // chunk (a download writing it). Waited for here, without holding a thread, so the
            // caller finds the receiver done with the chunk (the file closed under no write).
            await pushing.value
            throw error
        }
        return true
    }

    /// The error the relay was stopped with from outside (``stop(with:)``: the stream cancelled,
    /// its task cancelled, the idle timeout, `cancelAll`, the network invalidated); `nil` while
    /// it runs, and after a body that ended on its own, whole or broken. What a reader keeps of
    /// chunks already taken (a line reader's buffered lines) ends with it too.
    var stopError: (any Error)? {
        state.withLock { $0.stopError }
    }

    /// Whether ``push(to:)`` would push: the body is not being read, and its transport can push.
    var isPushable: Bool {
        state.withLock { Self.isPushable($0) }
    }

    private static func isPushable(_ state: State) -> Bool {
        !state.hasStarted && state.ending == nil && state.source?.isPushable == true
    }

    /// Ends the relay with `error` unless it has ended: its reading task is cancelled, so the
    /// transport drops the connection, and a waiting consumer is told.
    func stop(with error: any Error) {
        end(with: .failure(error))
    }

    // MARK: - The reading task

    private func startIfNeeded() {
        let source = state.withLock { state -> ByteStream? in
            guard !state.hasStarted, state.ending == nil else { return nil }
            state.hasStarted = true
            state.lastActivity = ContinuousClock.now
            return state.source.take()
        }
        guard let source else { return }
        start { await self.read(source) }
    }

    /// Starts the relay's reading task, which runs `read`, and its idle timer, and returns the
    /// task; a relay that ended meanwhile cancels the task at once.
    @discardableResult
    private func start(_ read: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let reader = Task { await read() }
        let stored = state.withLock { state -> Bool in
            guard state.ending == nil else { return false }
            state.reader = reader
            if let idleTimeout = state.idleTimeout {
                state.idleDeadline = DeadlineScheduler.shared.schedule(after: idleTimeout, self)
            }
            return true
        }
        if !stored { reader.cancel() }
        return reader
    }

    /// Reads `source` to its end or the relay's. The task holds the only reference to `source`,
    /// so when it returns the transport is let go of even if the relay's end came between two
    /// chunks, too late for the cancellation of the task to reach a wait of the transport's.
    private func read(_ source: ByteStream) async {
        do {
            for try await chunk in source {
                guard try await deliver(chunk) else { return }
            }
            end(with: .success(()))
        } catch {
            // The consumer reads what arrived before the transport failed, then the error.
            end(with: .failure(NetworkError.normalize(error)), keepingUnreadBytes: true)
        }
    }

    /// Pushes `source` to `receiver` to its end or the relay's (see ``push(to:)``).
    private func push(_ source: ByteStream, to receiver: @escaping ChunkReceiver) async {
        do {
            let isPushed = try await source.push { chunk in
                // The relay ended (its idle timeout, a cancellation): the transfer stops too, and
                // the chunk goes nowhere.
                let isRunning = self.state.withLock { state -> Bool in
                    guard state.ending == nil else { return false }
                    state.isDelivering = true
                    return true
                }
                guard isRunning else { throw CancellationError() }
                try receiver(chunk)
                let arrival = self.state.withLock { Self.noteArrival(of: chunk, at: ContinuousClock.now, in: &$0) }
                guard let arrival else { throw CancellationError() }
                arrival.tell(chunk)
                // The idle timer counts the server's silence from here on.
                self.state.withLock { state in
                    state.isDelivering = false
                    state.lastActivity = ContinuousClock.now
                }
            }
            guard isPushed else {
                // Checked before the relay started: only a stream read elsewhere meanwhile.
                throw NetworkError.invalidRequest(reason: "a byte stream can be read only once")
            }
            end(with: .success(()))
        } catch {
            end(with: .failure(NetworkError.normalize(error)), keepingUnreadBytes: true)
        }
    }

    /// Who hears of a chunk once it has arrived.
    private struct Arrival {
        let receivedBytes: Int64
        let progress: DownloadProgressCounter?
        let observers: [@Sendable (Data) -> Void]

        func tell(_ chunk: Data) {
            for observer in observers { observer(chunk) }
            progress?.received(totalBytes: receivedBytes)
        }
    }

    /// Counts `chunk`, which arrived `now`, for the idle timer and the body's length; `nil` once
    /// the relay has ended.
    private static func noteArrival(of chunk: Data, at now: ContinuousClock.Instant, in state: inout State)
        -> Arrival?
    {
        guard state.ending == nil else { return nil }
        state.lastActivity = now
        state.receivedBytes += Int64(chunk.count)
        return Arrival(receivedBytes: state.receivedBytes, progress: state.progress, observers: state.chunkObservers)
    }

    /// Hands `chunk` to the waiting consumer, or else keeps it and waits until the consumer takes
    /// it; `false` once the relay has ended.
    private func deliver(_ chunk: Data) async throws -> Bool {
        let now = ContinuousClock.now
        let (arrival, consumer) = state.withLock {
            state -> (Arrival?, UnsafeContinuation<Data?, any Error>?) in
            guard let arrival = Self.noteArrival(of: chunk, at: now, in: &state) else { return (nil, nil) }
            guard let consumer = state.consumer.take() else {
                state.pending = chunk
                return (arrival, nil)
            }
            return (arrival, consumer)
        }
        guard let arrival else { return false }
        let isKept = consumer == nil
        arrival.tell(chunk)
        consumer?.resume(returning: chunk)
        guard isKept else { return true }
        await withUnsafeContinuation { (producer: UnsafeContinuation<Void, Never>) in
            let resumesNow = state.withLock { state -> Bool in
                guard state.ending == nil, state.pending != nil else { return true }
                state.producer = producer
                return false
            }
            if resumesNow { producer.resume() }
        }
        if Task.isCancelled { throw CancellationError() }
        return true
    }

    // MARK: - The end

    func deadlinePassed() {
        let now = ContinuousClock.now
        // Bytes waiting for the consumer, or a chunk being written, mean the server is not the one
        // keeping it waiting.
        let timing = state.withLock { state -> (remaining: Duration, idleTimeout: Duration)? in
            guard state.ending == nil, let idleTimeout = state.idleTimeout else { return nil }
            state.idleDeadline = nil
            let silence = state.pending == nil && !state.isDelivering ? now - state.lastActivity : .zero
            return (idleTimeout - silence, idleTimeout)
        }
        guard let (remaining, idleTimeout) = timing else { return }
        guard remaining <= .zero else {
            let token = DeadlineScheduler.shared.schedule(after: remaining, self)
            let stored = state.withLock { state -> Bool in
                guard state.ending == nil else { return false }
                state.idleDeadline = token
                return true
            }
            if !stored { DeadlineScheduler.shared.cancel(token) }
            return
        }
        // Off the scheduler's queue: ending the relay reports the send to its observers (the
        // metrics hook, the failure actions), code that must not hold up every other deadline.
        DispatchQueue.global().async { self.stop(with: NetworkError.timedOut(after: idleTimeout)) }
    }

    /// Ends the relay; a failure releases the bytes not yet read unless `keepingUnreadBytes`.
    ///
    /// The end handlers (freeing the send's registration and its slot) run before the ending is
    /// recorded, so a consumer that sees the end finds them done: a send that threw is no longer
    /// counted as active.
    private func end(with outcome: Result<Void, any Error>, keepingUnreadBytes: Bool = false) {
        let ended = state.withLock { state -> (BodyEnd, [@Sendable (BodyEnd) -> Void])? in
            guard !state.isEnding else { return nil }
            state.isEnding = true
            let end = BodyEnd(error: outcome.failure, byteCount: state.receivedBytes)
            state.end = end
            // Only a stop from outside releases the unread bytes; the transport's own ending
            // keeps them for the reader.
            if !keepingUnreadBytes { state.stopError = outcome.failure }
            defer { state.endHandlers = [] }
            return (end, state.endHandlers)
        }
        guard let (end, handlers) = ended else { return }
        for handler in handlers { handler(end) }
        let (ending, source) = state.withLock { state in
            state.ending = outcome
            let ending = Ending(
                consumer: state.consumer, producer: state.producer, reader: state.reader,
                idleDeadline: state.idleDeadline)
            state.consumer = nil
            state.producer = nil
            state.reader = nil
            state.idleDeadline = nil
            if case .failure = outcome, !keepingUnreadBytes {
                // Bytes nobody will read are released at once.
                state.pending = nil
            }
            return (ending, state.source.take())
        }
        // A body never read is let go of here, outside the lock: the transport drops it.
        withExtendedLifetime(source) {}
        if let token = ending.idleDeadline { DeadlineScheduler.shared.cancel(token) }
        if case .failure(let error) = outcome {
            ending.reader?.cancel()
            ending.consumer?.resume(throwing: error)
        } else {
            ending.consumer?.resume(returning: nil)
        }
        ending.producer?.resume()
    }

    private struct Ending {
        let consumer: UnsafeContinuation<Data?, any Error>?
        let producer: UnsafeContinuation<Void, Never>?
        let reader: Task<Void, Never>?
        let idleDeadline: DeadlineScheduler.Token?
    }
}

/// How a streamed body ended, for those who report a send at its body's end.
struct BodyEnd: Sendable {
    /// Why the body ended early (a broken connection, the idle timeout, the size limit, a
    /// cancellation, the consumer letting the stream go), or `nil` when it was read to its end.
    let error: (any Error)?
    /// The body's bytes that arrived, read or not.
    let byteCount: Int64
}

extension Result {
    /// The error of a failure; `nil` for a success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
