/// A continuation that is resumed at most once, and resumed with
/// ``NetworkError/actionDidNotComplete(action:)`` if it is released without being resumed.
final class OneShotContinuation<Value: Sendable>: Sendable {
    private let continuation: LockedState<CheckedContinuation<Value, any Error>?>
    private let actionName: String

    init(_ continuation: CheckedContinuation<Value, any Error>, actionName: String) {
        self.continuation = LockedState(continuation)
        self.actionName = actionName
    }

    /// Resumes the waiting task unless it was resumed already; later calls do nothing.
    func resume(with result: Result<Value, any Error>) {
        continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }?.resume(with: result)
    }

    deinit {
        resume(with: .failure(NetworkError.actionDidNotComplete(action: actionName)))
    }
}
