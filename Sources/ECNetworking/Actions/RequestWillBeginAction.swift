/// An action that runs before a request is sent and may modify it (add an auth header) or fail it.
///
/// Implement either method. The async one is preferred: it cannot forget to answer. With the
/// completion-handler one, a handler released without being called fails the send
/// with ``NetworkError/actionDidNotComplete(action:)`` rather than hanging it.
///
/// A failure ends the send with that error, unchanged: nothing is sent and no later stage runs.
/// On a retry, will-begin actions run again, so a refreshed credential is applied.
public protocol RequestWillBeginAction: Action {
    /// The completion handler of this stage's completion-handler method.
    typealias RequestCompletion = @Sendable (Result<NetworkRequest, any Error>) -> Void

    /// Returns the request to send, changed or not; throwing fails the send.
    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest

    /// Calls `completion` once with the request to send, or with an error to fail the send.
    func requestWillBegin(_ request: NetworkRequest, completion: @escaping RequestCompletion)
}

extension RequestWillBeginAction {
    /// Bridges to the completion-handler method.
    public func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        try await CompletionBridge.awaitCompletion(of: Self.self) { completion in
            requestWillBegin(request, completion: completion)
        }
    }

    /// Bridges to the async method.
    public func requestWillBegin(_ request: NetworkRequest, completion: @escaping RequestCompletion) {
        CompletionBridge.startAsync(of: Self.self, completion: completion) {
            try await requestWillBegin(request)
        }
    }
}
