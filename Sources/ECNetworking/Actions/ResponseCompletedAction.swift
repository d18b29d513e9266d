/// An action that sees each response before validation and decoding, and may replace it, fail the
/// send, or ask for a retry (a token refresh after a 401, a back-off after a 503).
///
/// Implement either method. The async one returns a ``ResponseDecision``; the
/// completion-handler one passes a response, an error, or a ``RetryRequest`` to ask for a retry.
/// A thrown error ends the send with that error, unchanged.
public protocol ResponseCompletedAction: Action {
    /// The completion handler of this stage's completion-handler method.
    typealias ResponseCompletion = @Sendable (Result<NetworkResponse, any Error>) -> Void

    /// Decides what happens to the response; throwing fails the send.
    func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision

    /// Calls `completion` once with the response to go on with, an error to fail the send, or a
    /// ``RetryRequest`` to send the request again.
    func responseCompleted(request: NetworkRequest, response: NetworkResponse, completion: @escaping ResponseCompletion)
}

extension ResponseCompletedAction {
    /// Bridges to the completion-handler method.
    public func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws
        -> ResponseDecision
    {
        do {
            return .proceed(
                try await CompletionBridge.awaitCompletion(of: Self.self) { completion in
                    responseCompleted(request: request, response: response, completion: completion)
                })
        } catch let retry as RetryRequest {
            return .retry(after: retry.delay)
        }
    }

    /// Bridges to the async method.
    public func responseCompleted(
        request: NetworkRequest,
        response: NetworkResponse,
        completion: @escaping ResponseCompletion
    ) {
        CompletionBridge.startAsync(of: Self.self, completion: completion) {
            switch try await responseCompleted(request: request, response: response) {
            case .proceed(let response): return response
            case .retry(let delay): throw RetryRequest(after: delay)
            }
        }
    }
}
