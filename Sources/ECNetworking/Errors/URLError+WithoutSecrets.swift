import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLError {
    /// The error as a send hands it on, in ``NetworkError/transport(_:)``: the same code, with of
    /// its user info only its description, what the library notes in it
    /// (``NetworkError/requestMayHaveBeenSent``, the transport's cause) and the failing URL,
    /// redacted by `redaction`. Foundation's user info also holds the URL as it was (userinfo, a
    /// token parameter) and the session's task with its request and headers; code that catches the
    /// `URLError` and prints it or its `failingURL` must not show them.
    func withoutSecrets(_ redaction: Redaction = .forDescriptions) -> URLError {
        recoded(code, redaction)
    }

    /// The same, under `code`: a transport's name for what the session reported another way.
    func recoded(_ code: URLError.Code, _ redaction: Redaction = .forDescriptions) -> URLError {
        var kept: [String: Any] = [:]
        for key in [NSLocalizedDescriptionKey, NetworkError.mayHaveBeenSentKey, NetworkError.transportCauseKey] {
            if let value = userInfo[key] { kept[key] = value }
        }
        if let shown = failingURL.flatMap(redaction.redactedURL) {
            kept[NSURLErrorFailingURLErrorKey] = shown
        }
        return URLError(code, userInfo: kept)
    }
}
