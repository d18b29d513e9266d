import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One transport call that several identical sends wait on. Each waiter can leave on its own
/// (cancellation ends only that waiter); the call itself is cancelled when the last one leaves.
final class SharedTransportCall: Sendable {
    private struct State {
        var waiters: [Int: UnsafeContinuation<(Data, URLResponse), any Error>] = [:]
        var nextWaiter = 0
        var outcome: TransportCall.Outcome?
    }

    private let call: TransportCall
    private let state = LockedState(State())
    /// Called once when the call ends or is abandoned, so the registry forgets it before anyone
    /// else can join.
    private let onEnd: @Sendable (SharedTransportCall) -> Void

    init(_ call: TransportCall, onEnd: @escaping @Sendable (SharedTransportCall) -> Void) {
        self.call = call
        self.onEnd = onEnd
    }

    /// How many sends wait on this call.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    func start() {
        call.start { outcome in self.finish(outcome) }
    }

    /// Waits for the shared outcome; cancelling the calling task ends only this wait.
    func wait() async throws -> (Data, URLResponse) {
        let waiter = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            // Unchecked: a waiter is removed from `waiters` under the lock before it is resumed, so
            // it is resumed exactly once; the checked kind would cost an allocation per request.
            try await withUnsafeThrowingContinuation { continuation in
                let outcome: TransportCall.Outcome? = state.withLock { state in
                    if let outcome = state.outcome { return outcome }
                    if Task.isCancelled { return .failure(NetworkError.cancelled) }
                    state.waiters[waiter] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            leave(waiter)
        }
    }

    private func leave(_ waiter: Int) {
        let (continuation, abandoned) = state.withLock { state in
            let continuation = state.waiters.removeValue(forKey: waiter)
            return (continuation, continuation != nil && state.waiters.isEmpty && state.outcome == nil)
        }
        continuation?.resume(throwing: NetworkError.cancelled)
        if abandoned {
            onEnd(self)
            call.cancel()
        }
    }

    private func finish(_ outcome: TransportCall.Outcome) {
        onEnd(self)
        let waiters = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }
}
