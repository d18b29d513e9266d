import Foundation

/// Runs one action under ``NetworkConfiguration/actionTimeout``, so an action that never finishes
/// (even one that ignores cancellation) fails the send instead of hanging it.
enum ActionDeadline {
    static func run<Value: Sendable>(
        _ action: Any,
        timeout: Duration,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let name = String(describing: type(of: action))
        let outcome = LockedState<CheckedContinuation<Value, any Error>?>(nil)
        let resume: @Sendable (Result<Value, any Error>) -> Void = { result in
            outcome.withLock { stored in
                defer { stored = nil }
                return stored
            }?.resume(with: result)
        }
        // The action runs in its own task so that the wait can end without it; it is cancelled when
        // the deadline passes or the send is cancelled.
        let work = LockedState<Task<Void, Never>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.withLock { $0 = continuation }
                let task = Task {
                    do {
                        resume(.success(try await operation()))
                    } catch {
                        resume(.failure(error))
                    }
                }
                work.withLock { $0 = task }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) {
                    resume(.failure(NetworkError.actionTimedOut(action: name, after: timeout)))
                    task.cancel()
                }
                if Task.isCancelled { resume(.failure(NetworkError.cancelled)) }
            }
        } onCancel: {
            resume(.failure(NetworkError.cancelled))
            work.withLock { $0 }?.cancel()
        }
    }
}
