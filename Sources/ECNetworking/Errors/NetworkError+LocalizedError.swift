import Foundation

extension NetworkError: LocalizedError {
    /// A sentence a person can act on.
    public var errorDescription: String? {
        switch self {
        case .invalidRequest(let reason):
            "The request is invalid and was not sent: \(reason)."
        case .encodingFailed(let error):
            "The request body could not be encoded: \(error)."
        case .transport(let error):
            "The server could not be reached (URLError \(error.code.rawValue)): \(error.localizedDescription)"
        case .timedOut(let duration):
            "The request timed out after \(duration)."
        case .unacceptableStatusCode(let response):
            "The server answered with status \(response.statusCode)\(Self.bodySnippet(response))."
        case .decodingFailed(let error, let response):
            "The response (status \(response.statusCode), \(response.body.count) bytes) could not be decoded: \(error)."
        case .retryLimitReached(let attempts, let response):
            "The request was retried until the limit: \(attempts) attempts, the last answered with status \(response.statusCode)."
        case .invalidResponse:
            "The server's answer is not an HTTP response."
        case .responseTooLarge(let limit):
            "The response was larger than the limit of \(limit) bytes, so the transfer was stopped."
        case .tooManyRedirects(let limit):
            "The server redirected more than \(limit) times."
        case .redirectRefused(let scheme):
            "The server redirected to \(scheme.isEmpty ? "a URL without a scheme" : "a \(scheme) URL"), which was not followed: only http and https redirects are."
        case .actionTimedOut(let action, let duration):
            "The action \(action) did not finish within \(duration)."
        case .retriesExhausted(let attempts, let lastError):
            "The request failed after \(attempts) attempts: \((lastError as? LocalizedError)?.errorDescription ?? "\(lastError)")"
        case .actionDidNotComplete(let action):
            "The action \(action) released its completion handler without calling it."
        case .actionNotImplemented(let action):
            "The action \(action) implements neither its async nor its completion-handler method."
        case .cancelled:
            "The request was cancelled."
        case .invalidated:
            "The request was not sent: its network was invalidated and sends nothing any more."
        }
    }

    private static func bodySnippet(_ response: NetworkResponse) -> String {
        guard !response.body.isEmpty, let text = String(data: response.body.prefix(200), encoding: .utf8) else {
            return ""
        }
        return ": \(text)"
    }
}
