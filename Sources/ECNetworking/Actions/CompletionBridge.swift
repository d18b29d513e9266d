/// Bridges the two styles an action may be written in: `async` methods and
/// completion handlers.
///
/// Each stage protocol declares both methods and gives each a default that calls the other, so an
/// action implements whichever it likes. Two guards keep that safe:
/// - A completion handler that is released without being called resumes the send with
///   ``NetworkError/actionDidNotComplete(action:)``, so a forgotten callback cannot hang a request.
/// - An action that implements neither method would bounce between the defaults forever; a
///   task-local marker notices the bounce and fails with ``NetworkError/actionNotImplemented(action:)``.
enum CompletionBridge {
    @TaskLocal static var bridgingAction: ObjectIdentifier?

    /// Calls a completion-style method and waits for its completion handler, exactly once.
    /// Cancellation ends the wait at once, whatever the action does with its handler later.
    static func awaitCompletion<Action, Value: Sendable>(
        of action: Action.Type,
        _ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
    ) async throws -> Value {
        // Weak, so that the completion handler stays the only owner and dropping it is noticed.
        let cancellationTarget = WeakReference<OneShotContinuation<Value>>()
        return try await SendCancellation.withCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let oneShot = OneShotContinuation(continuation, actionName: String(describing: action))
                cancellationTarget.set(oneShot)
                // The cancellation flag is set before `onCancel` runs, so checking it after
                // registering covers a cancellation that came first.
                if SendCancellation.isCancelled {
                    oneShot.resume(with: .failure(NetworkError.cancelled))
                    return
                }
                $bridgingAction.withValue(ObjectIdentifier(action)) {
                    start { result in oneShot.resume(with: result) }
                }
            }
        } onCancel: {
            cancellationTarget.get()?.resume(with: .failure(NetworkError.cancelled))
        }
    }

    /// Runs an async method for a caller that used the completion-style method, or fails at once
    /// when the async method is itself only the bridge back (the action implements neither).
    static func startAsync<Action, Value: Sendable>(
        of action: Action.Type,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void,
        _ operation: @escaping @Sendable () async throws -> Value
    ) {
        if bridgingAction == ObjectIdentifier(action) {
            completion(.failure(NetworkError.actionNotImplemented(action: String(describing: action))))
            return
        }
        Task {
            do {
                completion(.success(try await operation()))
            } catch {
                completion(.failure(error))
            }
        }
    }
}
