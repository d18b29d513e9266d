/// One refresh that any number of requests wait for, each on its own terms: a waiter's
/// cancellation ends its own wait at once, while the refresh goes on for the others.
///
/// The flight ends exactly once: with the refresh's result, or earlier when it is abandoned (the
/// credential was reset, or the refresh took longer than its time limit). Abandoning fails every
/// waiter at once and cancels the refresh task, whose result is then never used.
final class RefreshFlight<Value: Sendable>: DeadlineTarget {
    private struct State {
        var result: Result<Value, any Error>?
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
        var nextWaiter: UInt64 = 0
        var task: Task<Void, Never>?
        var deadline: DeadlineScheduler.Token?
    }

    private let timeout: Duration?
    private let state = LockedState(State())

    /// Creates a flight that is abandoned with ``AuthenticationError/refreshTimedOut(after:)``
    /// once `timeout` has passed after ``start(_:)``; `nil` means no limit.
    init(timeout: Duration?) {
        self.timeout = timeout
    }

    /// Whether the flight has not ended yet, so a request that needs a credential should join it.
    var isRunning: Bool {
        state.withLock { $0.result == nil }
    }

    /// Keeps the refresh task, to cancel it when the flight is abandoned, and starts the time limit.
    func start(_ task: Task<Void, Never>) {
        let token = timeout.map { DeadlineScheduler.shared.schedule(after: $0, self) }
        let isOver = state.withLock { state in
            state.task = task
            state.deadline = token
            return state.result != nil
        }
        // Ended before it was started: the refresh and its time limit are not wanted.
        if isOver {
            task.cancel()
            if let token { DeadlineScheduler.shared.cancel(token) }
        }
    }

    /// Ends the flight with `result` unless it already ended; returns whether this call ended it.
    @discardableResult
    func finish(with result: Result<Value, any Error>) -> Bool {
        finish(with: result, cancellingRefresh: false)
    }

    /// Fails every waiter with `error` and cancels the refresh, unless the flight already ended.
    func abandon(with error: any Error) {
        finish(with: .failure(error), cancellingRefresh: true)
    }

    @discardableResult
    private func finish(with result: Result<Value, any Error>, cancellingRefresh: Bool) -> Bool {
        guard let ending = end(with: result) else { return false }
        if let deadline = ending.deadline { DeadlineScheduler.shared.cancel(deadline) }
        // Before the waiters resume, so that whatever they do next finds the refresh cancelled.
        if cancellingRefresh { ending.task?.cancel() }
        for waiter in ending.waiters { waiter.resume(with: result) }
        return true
    }

    func deadlinePassed() {
        abandon(with: AuthenticationError.refreshTimedOut(after: timeout ?? .zero))
    }

    /// Waits for the flight's result; throws `CancellationError` as soon as the calling task is
    /// cancelled.
    func value() async throws -> Value {
        let identifier = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await SendCancellation.withCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let early: Result<Value, any Error>? = state.withLock { state in
                    if let result = state.result { return result }
                    // The flag is set before `onCancel` runs, so a cancellation that came first is seen here.
                    if SendCancellation.isCancelled { return .failure(CancellationError()) }
                    state.waiters[identifier] = continuation
                    return nil
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: { [self] in
            state.withLock { $0.waiters.removeValue(forKey: identifier) }?.resume(throwing: CancellationError())
        }
    }

    private struct Ending {
        var waiters: [CheckedContinuation<Value, any Error>]
        var deadline: DeadlineScheduler.Token?
        var task: Task<Void, Never>?
    }

    private func end(with result: Result<Value, any Error>) -> Ending? {
        state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer {
                state.waiters = [:]
                state.deadline = nil
            }
            return Ending(waiters: Array(state.waiters.values), deadline: state.deadline, task: state.task)
        }
    }
}
