import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Redaction {
    /// `error` as it may be handed on to code that keeps or forwards it (the metrics hook): the same
    /// case, with every ``NetworkResponse`` it carries redacted as ``response(_:)`` does and a
    /// `URLError`'s failing URL redacted, however deeply the error wraps them (a retry's last error).
    /// Any other error is returned as it is.
    func error(_ error: any Error) -> any Error {
        switch error {
        case let error as NetworkError:
            return networkError(error)
        case let error as URLError:
            return urlError(error)
        default:
            return error
        }
    }

    /// The response with its headers (see ``headerValue(name:value:)``), URL, body fields and
    /// request (see ``request(_:)``) redacted, and without the `HTTPURLResponse` the session
    /// delivered, which holds every header and the URL as they came.
    func response(_ response: NetworkResponse) -> NetworkResponse {
        NetworkResponse(
            statusCode: response.statusCode,
            headers: headers(response.headers),
            body: body(response.body, contentType: response.headers["Content-Type"]),
            url: response.url.flatMap(redactedURL),
            request: response.request.map(request),
            timings: response.timings)
    }

    private func networkError(_ error: NetworkError) -> NetworkError {
        switch error {
        case .transport(let underlying):
            return .transport(urlError(underlying))
        case .unacceptableStatusCode(let response):
            return .unacceptableStatusCode(self.response(response))
        case .unacceptableContentType(let response):
            return .unacceptableContentType(self.response(response))
        case .decodingFailed(let underlying, let response):
            return .decodingFailed(underlying, response: self.response(response))
        case .retryLimitReached(let attempts, let response):
            return .retryLimitReached(attempts: attempts, response: self.response(response))
        case .bodyNotReplayable(let response, let lastError):
            return .bodyNotReplayable(response: response.map(self.response), lastError: lastError.map(self.error))
        case .retriesExhausted(let attempts, let lastError):
            return .retriesExhausted(attempts: attempts, lastError: self.error(lastError))
        default:
            return error
        }
    }

    /// The same code, with the failing URL redacted by this configuration's names (see
    /// `URLError.withoutSecrets(_:)`).
    private func urlError(_ error: URLError) -> URLError {
        error.withoutSecrets(self)
    }
}
