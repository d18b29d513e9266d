/// A continuation that is resumed at most once, and resumed with
/// ``NetworkError/actionDidNotComplete(action:)`` if it is released without being resumed.
final class OneShotContinuation<Value: Sendable>: Sendable {
    private let handoff:
        LockedState<OneShotHandoff<CheckedContinuation<Value, any Error>, Result<Value, any Error>, Void>>
    private let actionName: String

    init(_ continuation: CheckedContinuation<Value, any Error>, actionName: String) {
        self.handoff = LockedState(OneShotHandoff(waiter: continuation))
        self.actionName = actionName
    }

    /// Resumes the waiting task unless it was resumed already; later calls do nothing.
    func resume(with result: Result<Value, any Error>) {
        handoff.withLock { $0.finish(result) }?.waiter?.resume(with: result)
    }

    deinit {
        resume(with: .failure(NetworkError.actionDidNotComplete(action: actionName)))
    }
}
