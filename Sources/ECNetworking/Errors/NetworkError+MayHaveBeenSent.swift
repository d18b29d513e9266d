import Foundation

extension NetworkError {
    /// Whether this is a ``transport(_:)`` error, `.networkConnectionLost`, of a request the
    /// server may have received and acted on although no answer came: its method is not
    /// idempotent (`POST`, `PATCH`, ...), so the library did not send it again.
    ///
    /// A server closes an idle keep-alive connection whenever it likes; a request written to it in
    /// that moment is lost, or reaches the server just before the close. An idempotent request is
    /// sent again on a new connection without a word, since a second copy changes nothing (RFC
    /// 9110, section 9.2.2). A `POST` is not: a second copy could place a second order. When this
    /// is `true`, find out whether the first one took effect (read the resource back, or send it
    /// again with an idempotency key the server honours) before sending it again. The retry policy
    /// retries it only for a request that opts in with ``RetryableRequest``.
    ///
    /// ```swift
    /// do {
    ///     _ = try await network.send(NetworkRequest(method: .post, url: ordersURL))
    /// } catch let error as NetworkError where error.requestMayHaveBeenSent {
    ///     // Look the order up before placing it again.
    /// }
    /// ```
    ///
    /// Both transports say so: `AsyncHTTPClientTransport` when the connection closed after the
    /// request's head was written (before that, it sends the request again on another
    /// connection), ``URLSessionTransport`` whenever the connection was lost before a response
    /// head, since `URLSession` does not tell how much it wrote.
    public var requestMayHaveBeenSent: Bool {
        guard case .transport(let error) = self else { return false }
        return error.userInfo[Self.mayHaveBeenSentKey] as? Bool == true
    }

    /// The key of ``requestMayHaveBeenSent`` in a `URLError`'s user info.
    static let mayHaveBeenSentKey = "ECNetworkingRequestMayHaveBeenSent"

    /// `error`, or, when it is a lost connection before any answer to a request whose method is
    /// not idempotent, the same error saying the request may have been sent.
    static func markingMayHaveBeenSent(_ error: NetworkError, method: HTTPMethod) -> NetworkError {
        guard case .transport(let urlError) = error, urlError.code == .networkConnectionLost, !method.isIdempotent
        else { return error }
        var userInfo = urlError.userInfo
        userInfo[mayHaveBeenSentKey] = true
        return .transport(URLError(urlError.code, userInfo: userInfo))
    }
}
