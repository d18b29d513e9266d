/// Runs one action under ``NetworkConfiguration/actionTimeout``, so an action that never finishes
/// (even one that ignores cancellation) fails the send instead of hanging it.
///
/// The action runs in its own task so that the wait can end without it; that task is cancelled when
/// the deadline passes or the send is cancelled. The deadline is kept by ``DeadlineScheduler``, so an
/// action that finishes in time leaves nothing pending.
final class ActionDeadline<Value: Sendable>: DeadlineTarget {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var isFinished = false
        var work: Task<Void, Never>?
        var token: DeadlineScheduler.Token?
    }

    private let actionName: String
    private let timeout: Duration
    private let state = LockedState(State())

    private init(actionName: String, timeout: Duration) {
        self.actionName = actionName
        self.timeout = timeout
    }

    static func run(
        _ action: Any,
        timeout: Duration,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let deadline = ActionDeadline(actionName: String(describing: type(of: action)), timeout: timeout)
        return try await SendCancellation.withCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                deadline.start(continuation, operation)
            }
        } onCancel: {
            deadline.finish(.failure(NetworkError.cancelled))
        }
    }

    private func start(
        _ continuation: CheckedContinuation<Value, any Error>,
        _ operation: @escaping @Sendable () async throws -> Value
    ) {
        state.withLock { $0.continuation = continuation }
        // The cancellation flag is set before `onCancel` runs, so checking it after storing the
        // continuation covers a cancellation that came first.
        if SendCancellation.isCancelled {
            finish(.failure(NetworkError.cancelled))
            return
        }
        let work = Task {
            do {
                self.finish(.success(try await operation()))
            } catch {
                self.finish(.failure(error))
            }
        }
        let token = DeadlineScheduler.shared.schedule(after: timeout, self)
        let alreadyFinished = state.withLock { state in
            guard !state.isFinished else { return true }
            state.work = work
            state.token = token
            return false
        }
        // The wait may have ended before the task and the deadline were stored: the action finished
        // quickly (cancelling its task then does nothing), or the deadline passed or the send was
        // cancelled, and `finish` found no task to cancel. Either way neither is wanted any more.
        if alreadyFinished {
            DeadlineScheduler.shared.cancel(token)
            work.cancel()
        }
    }

    func deadlinePassed() {
        finish(.failure(NetworkError.actionTimedOut(action: actionName, after: timeout)))
    }

    /// Ends the wait with `result` unless it already ended; a failure also cancels the action.
    private func finish(_ result: Result<Value, any Error>) {
        let ending = state.withLock { state -> State? in
            guard !state.isFinished, state.continuation != nil else { return nil }
            let ending = state
            state = State(isFinished: true)
            return ending
        }
        guard let ending else { return }
        if let token = ending.token { DeadlineScheduler.shared.cancel(token) }
        if case .failure = result { ending.work?.cancel() }
        ending.continuation?.resume(with: result)
    }
}
