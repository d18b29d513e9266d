/// Runs one action under ``NetworkConfiguration/actionTimeout``, so an action that never finishes
/// (even one that ignores cancellation) fails the send instead of hanging it.
///
/// The action runs in its own task so that the wait can end without it; that task is cancelled when
/// the deadline passes or the send is cancelled. The deadline is kept by ``DeadlineScheduler``, so an
/// action that finishes in time leaves nothing pending.
final class ActionDeadline<Value: Sendable>: DeadlineTarget {
    /// What the wait holds while the action runs, released by whichever ending comes first.
    private struct Resources: Sendable {
        var work: Task<Void, Never>?
        var token: DeadlineScheduler.Token?
    }

    private let actionName: String
    private let timeout: Duration
    private let state = LockedState(
        OneShotHandoff<CheckedContinuation<Value, any Error>, Result<Value, any Error>, Resources>(
            resources: Resources()))

    private init(actionName: String, timeout: Duration) {
        self.actionName = actionName
        self.timeout = timeout
    }

    static func run(
        _ action: Any,
        timeout: Duration,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        // A limit of no time at all would fail every action of every send, each as if it had hung.
        guard timeout > .zero else {
            throw NetworkError.invalidRequest(
                reason: "NetworkConfiguration.actionTimeout is \(timeout); it must be above zero, or nil for no limit")
        }
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
        // A cancellation that came first has already ended the handoff, which kept its outcome.
        if let early = state.withLock({ $0.wait(continuation) }) {
            continuation.resume(with: early)
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
        // The wait may have ended before the task and the deadline were stored: the action finished
        // quickly (cancelling its task then does nothing), or the deadline passed or the send was
        // cancelled, and `finish` found no task to cancel. Either way neither is wanted any more.
        let stored = state.withLock { state in
            state.updateResources { resources in
                resources.work = work
                resources.token = token
            }
        }
        if !stored {
            DeadlineScheduler.shared.cancel(token)
            Self.cancel(work)
        }
    }

    func deadlinePassed() {
        finish(.failure(NetworkError.actionTimedOut(action: actionName, after: timeout)))
    }

    /// Ends the wait with `result` unless it already ended; a failure also cancels the action.
    private func finish(_ result: Result<Value, any Error>) {
        guard let ending = state.withLock({ $0.finish(result) }) else { return }
        if let token = ending.resources.token { DeadlineScheduler.shared.cancel(token) }
        if case .failure = result, let work = ending.resources.work { Self.cancel(work) }
        ending.waiter?.resume(with: result)
    }

    /// Cancels the action's task, whose cancellation handlers run here and now, outside the send:
    /// this may be the cancelled send's own task (a cancellation that came before the task was
    /// stored, or before the wait's handler was), and a handler's `Task {}` would then inherit the
    /// send and be cancelled with it, where one run on the canceller's thread starts a send of its
    /// own.
    private static func cancel(_ work: Task<Void, Never>) {
        SendCancellation.$current.withValue(nil) { work.cancel() }
    }
}
