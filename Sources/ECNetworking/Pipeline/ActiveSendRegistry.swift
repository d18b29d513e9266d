/// The sends in progress: for cancelling them in bulk and for observing how many there are.
///
/// Each send is registered with its own ``SendCancellation``, which is what ``cancel(requestType:)``
/// cancels: cancellation of a task is permanent, so cancelling the caller's task would also fail
/// whatever it did next (another send, a sleep, a server handler's database call). The caller's own
/// cancellation still reaches the send, through the task.
package final class ActiveSendRegistry: Sendable {
    private struct Send {
        let requestType: ObjectIdentifier?
        let cancellation: SendCancellation
    }

    /// A subscription (to Server-Sent Events) that outlives its connections: `cancelAll` and
    /// invalidation reach it between connections too, through `end`.
    private struct Subscription {
        let requestType: ObjectIdentifier?
        let end: @Sendable (any Error) -> Void
    }

    private struct State {
        // Sends in slots found by index, reused once a send ends, rather than in a dictionary:
        // registering and removing a send then hashes nothing, and every send does both.
        var sends: [Send?] = []
        var freeSlots: [Int] = []
        var count = 0
        var observers: [UInt64: AsyncStream<Int>.Continuation] = [:]
        /// The subscriptions in progress, by identifier: not counted, since they never end by
        /// themselves (their open connections are counted, as sends).
        var subscriptions: [UInt64: Subscription] = [:]
        var nextIdentifier: UInt64 = 0
        /// Whether ``ActiveSendRegistry/close()`` was called: no send starts any more.
        var isClosed = false

        mutating func makeIdentifier() -> UInt64 {
            nextIdentifier += 1
            return nextIdentifier
        }

        /// Puts `send` in a free slot and returns the slot.
        mutating func insert(_ send: Send) -> Int {
            count += 1
            if let slot = freeSlots.popLast() {
                sends[slot] = send
                return slot
            }
            sends.append(send)
            return sends.count - 1
        }

        /// Empties `slot`.
        mutating func remove(at slot: Int) {
            sends[slot] = nil
            freeSlots.append(slot)
            count -= 1
        }

        /// Tells every observer the current count; called with the lock held so updates stay in order.
        // The check inlined into each registration, which every send makes twice, and the loop
        // called only when someone observes: as one call, it cost each send some ten instruction-cache
        // misses for nothing (callgrind).
        @inline(__always) func publish() {
            guard !observers.isEmpty else { return }
            yieldCount()
        }

        @inline(never) private func yieldCount() {
            for observer in observers.values { observer.yield(count) }
        }
    }

    private let state = InlineLockedState(State())

    /// Creates a registry with no sends.
    package init() {}

    /// Runs `body` as a registered send of `requestType`, which ``cancel(requestType:)`` can cancel
    /// without cancelling the calling task; `body` gets the send's cancellation, to check it
    /// without looking it up.
    ///
    /// - Throws: ``NetworkError/invalidated`` without running `body` once ``close()`` was called;
    ///   otherwise what `body` throws.
    // Inlined into every send and run on the caller's executor (as `body` is): no async frame of
    // its own, and the send's non-`Sendable` closure is called without an executor switch.
    @inline(__always) nonisolated(nonsending) package func track<Value>(
        _ requestType: ObjectIdentifier?,
        _ body: nonisolated(nonsending) (SendCancellation) async throws -> Value
    ) async throws -> Value {
        let cancellation = SendCancellation()
        // Checked under the lock that registers the send, so a send either is registered before
        // `close()` (and then cancelled by whoever closed) or sees that it was closed.
        let slot = state.withLock { state -> Int? in
            guard !state.isClosed else { return nil }
            let slot = state.insert(Send(requestType: requestType, cancellation: cancellation))
            state.publish()
            return slot
        }
        guard let slot else { throw NetworkError.invalidated }
        defer { unregister(slot) }
        return try await cancellation.run { try await body(cancellation) }
    }

    /// Lets no more sends start: ``track(_:isolation:_:)`` throws ``NetworkError/invalidated``
    /// from now on. Sends already registered go on until they end or are cancelled.
    package func close() {
        state.withLock { $0.isClosed = true }
    }

    /// Whether ``close()`` was called.
    package var isClosed: Bool { state.withLock { $0.isClosed } }

    /// What `finishSendsAndInvalidate()` does on every network: lets no more sends start, ends
    /// every subscription with ``NetworkError/invalidated`` (it has no end to run to), and returns
    /// once the sends in progress have ended.
    package func finishSends() async {
        close()
        endSubscriptions(with: NetworkError.invalidated)
        for await count in updates() where count == 0 { break }
    }

    /// Tracks a part of a send that outlives ``track(_:isolation:_:)``, the body of a streamed
    /// send, until ``unregister(_:)``: `cancelAll` cancels `cancellation` meanwhile, and the
    /// activity count includes it. Returns the slot to unregister.
    // Inlined since `track` registered every send through it; its one caller now, a streamed
    // body's registration, still costs the lock and no call.
    @inline(__always) package func register(_ requestType: ObjectIdentifier?, cancellation: SendCancellation) -> Int {
        state.withLock { state in
            let slot = state.insert(Send(requestType: requestType, cancellation: cancellation))
            state.publish()
            return slot
        }
    }

    /// Stops tracking what ``register(_:cancellation:)`` registered in `slot`.
    // Inlined into `track`'s `defer`, which every send runs: the unregistration costs the lock
    // and no call.
    @inline(__always) package func unregister(_ slot: Int) {
        state.withLock { state in
            state.remove(at: slot)
            state.publish()
        }
    }

    /// Cancels every send, or only those of one request type, and none of their callers; the
    /// subscriptions of that type end with ``NetworkError/cancelled``.
    ///
    /// The sends' cancellation handlers run after the lock is released, so a handler may use the
    /// network (read its activity, start another send, cancel again) without deadlocking.
    package func cancel(requestType: ObjectIdentifier? = nil) {
        let (targets, subscriptions) = state.withLock {
            state -> ([SendCancellation], [@Sendable (any Error) -> Void]) in
            let targets = state.sends.compactMap { send -> SendCancellation? in
                guard let send, requestType == nil || send.requestType == requestType else { return nil }
                return send.cancellation
            }
            guard !state.subscriptions.isEmpty else { return (targets, []) }
            let subscriptions = state.subscriptions.values.compactMap { subscription in
                requestType == nil || subscription.requestType == requestType ? subscription.end : nil
            }
            return (targets, subscriptions)
        }
        // Every send is marked before any handler runs: cancelling the send on the wire frees its
        // slot, and a queued send that took the slot before it was marked could run to a success.
        let pending = targets.map { $0.markCancelled() }
        for handlers in pending { handlers.run() }
        for end in subscriptions { end(NetworkError.cancelled) }
    }

    /// Registers a subscription of `requestType`, which never ends by itself: ``cancel(requestType:)``
    /// and ``endSubscriptions(with:)`` call `end` with the error it should end with. It is not
    /// counted as a send. Returns the identifier to unregister it with, or `nil` once ``close()``
    /// was called, when the subscription must not start.
    package func registerSubscription(
        _ requestType: ObjectIdentifier?, end: @escaping @Sendable (any Error) -> Void
    ) -> UInt64? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            let identifier = state.makeIdentifier()
            state.subscriptions[identifier] = Subscription(requestType: requestType, end: end)
            return identifier
        }
    }

    /// Stops tracking the subscription ``registerSubscription(_:end:)`` registered as `identifier`.
    package func unregisterSubscription(_ identifier: UInt64) {
        state.withLock { _ = $0.subscriptions.removeValue(forKey: identifier) }
    }

    /// Ends every subscription with `error`: what `finishSendsAndInvalidate()` does, since a
    /// subscription would otherwise keep it waiting for ever.
    package func endSubscriptions(with error: any Error) {
        let subscriptions = state.withLock { state -> [@Sendable (any Error) -> Void] in
            defer { state.subscriptions = [:] }
            return state.subscriptions.values.map(\.end)
        }
        for end in subscriptions { end(error) }
    }

    /// The number of sends in progress.
    package var count: Int { state.withLock { $0.count } }

    /// A stream of the number of sends in progress: the current number first, then each change.
    package func updates() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(64))
        let identifier = state.withLock { state in
            let identifier = state.makeIdentifier()
            state.observers[identifier] = continuation
            continuation.yield(state.count)
            return identifier
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.observers.removeValue(forKey: identifier) }
        }
        return stream
    }
}
