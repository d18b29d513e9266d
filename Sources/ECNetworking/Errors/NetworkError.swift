import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a send failed, when the library itself is the one to say so.
///
/// Errors thrown by your own actions and by ``Request/buildRequest(with:)`` pass through
/// unchanged; everything else is one of these cases.
///
/// The cases, and what each carries, change only in a new major version: a minor version adds
/// none, so an exhaustive `switch` keeps compiling until then (new kinds of failure arrive inside
/// ``transport(_:)`` or ``invalidRequest(reason:)``).
public enum NetworkError: Error, Sendable {
    /// The request could not be sent as built: a malformed URL, a header with a line break, a
    /// URL that cannot take a query. Nothing went on the wire.
    case invalidRequest(reason: String)
    /// The body could not be encoded; the underlying error says why.
    case encodingFailed(any Error)
    /// The transport failed: no connection, DNS, connection lost, TLS. Carries the `URLError`.
    case transport(URLError)
    /// An attempt took longer than its timeout.
    case timedOut(after: Duration)
    /// The server answered with a status the request does not accept. The whole response is here,
    /// so an API error body can be decoded with ``decodeBody(_:using:)``.
    case unacceptableStatusCode(NetworkResponse)
    /// The response's `Content-Type` is not one the request accepts (its `Accept` header, or
    /// JSON for a `Decodable` response), and the body did not decode either, or the request
    /// asked for the check with ``NetworkRequest/validatesContentType``. Found after the status
    /// was accepted. Carries the whole response. See ``NetworkConfiguration/validatesContentType``.
    case unacceptableContentType(NetworkResponse)
    /// The body could not be turned into the typed response. Carries the underlying error and
    /// the response, so its body can be inspected.
    case decodingFailed(any Error, response: NetworkResponse)
    /// A completed action asked for a retry when the send had already made all the retries
    /// ``NetworkConfiguration/maximumRetries`` allows (the retry policy's included). Carries the
    /// number of attempts and the response the action wanted retried.
    case retryLimitReached(attempts: Int, response: NetworkResponse)
    /// A completed action or the retry policy asked for a retry, or a 307 or 308 redirect for the
    /// request again, but the request's body was a one-shot stream
    /// (``RequestBody/stream(_:length:contentType:)``) the attempt had consumed, so the send ends
    /// rather than resend it. The request was sent: the server may have acted on it. Carries the
    /// attempt's response, when it got one (the redirect itself, for a redirect, with an empty
    /// body), and its error, when it failed.
    case bodyNotReplayable(response: NetworkResponse?, lastError: (any Error)?)
    /// The session answered with something that is not an HTTP response.
    case invalidResponse
    /// The body grew past ``NetworkConfiguration/maximumResponseSize``; the transfer was stopped.
    case responseTooLarge(limit: Int)
    /// A streamed body's reader fell further behind than the transport can hold for it: on Linux,
    /// ``URLSessionTransport`` keeps the bytes its reader has not taken yet in a spill file, and
    /// stops the transfer when the reader would be more than `limit` bytes (its
    /// `maximumSpillSize`) behind; on a file system that cannot give read space back (see
    /// <doc:LinuxNotes>), when the file would pass `limit` bytes.
    case readerFellBehind(limit: Int)
    /// The request body's stream (``RequestBody/stream(_:length:contentType:)``) threw while it was
    /// sent, so the transfer was stopped; part of the body may have gone out. Carries the error the
    /// stream threw.
    case requestBodyFailed(any Error)
    /// The server redirected more often than ``RedirectPolicy/maximumRedirects`` allows.
    case tooManyRedirects(limit: Int)
    /// The server redirected to a URL whose scheme is not http or https (such as `file:` or
    /// `data:`); the redirect was not followed. Carries the scheme, never the URL, which may hold
    /// secrets.
    case redirectRefused(scheme: String)
    /// An action took longer than ``NetworkConfiguration/actionTimeout``.
    case actionTimedOut(action: String, after: Duration)
    /// The retry policy would have retried the last failure, but no attempt was left: its own
    /// ``RetryPolicy/maximumAttempts`` or the send's ``NetworkConfiguration/maximumRetries`` was
    /// reached. Carries the number of attempts and the last attempt's error.
    case retriesExhausted(attempts: Int, lastError: any Error)
    /// A completion-style action released its completion handler without calling it. The send
    /// fails instead of hanging.
    case actionDidNotComplete(action: String)
    /// An action implements neither its async nor its completion-handler method.
    case actionNotImplemented(action: String)
    /// The send was cancelled: by its task, its `Cancellable`, or while queued or in an action.
    case cancelled
    /// The network (or the transport) was invalidated before the send started, so it sends
    /// nothing any more; create a new one. See ``HTTPNetwork/invalidate()``.
    case invalidated
    /// The transport cannot apply this setting of its ``TLSPolicy`` (a pin, a root of trust, a
    /// client certificate, a minimum version), so it sent nothing rather than ignore it; see
    /// ``TLSPolicy`` for what each transport applies.
    case tlsSettingUnavailable(TLSSetting)

    /// The response this error carries, if any.
    public var response: NetworkResponse? {
        switch self {
        case .unacceptableStatusCode(let response), .decodingFailed(_, let response),
            .retryLimitReached(_, let response), .unacceptableContentType(let response):
            response
        case .bodyNotReplayable(let response, let lastError):
            response ?? (lastError as? NetworkError)?.response
        case .retriesExhausted(_, let lastError):
            (lastError as? NetworkError)?.response
        default:
            nil
        }
    }

    /// The status code of the response this error carries, if any.
    public var statusCode: Int? { response?.statusCode }

    /// For a ``transport(_:)`` error, what the transport's own library threw, by its type and
    /// case: `NIOSSLExtraError.failedToValidateHostname` for a certificate that does not name the
    /// host, `NIOSSLError.handshakeFailed(sslError: CERTIFICATE_VERIFY_FAILED)` for one that is
    /// expired or not trusted, `HTTPClientError(Remote connection closed)`, `IOError(errno 104)`.
    /// It never holds a value the original error carried (a URL, a header, a host name), so it
    /// may be logged as it is. `nil` for other errors, and for the `URLSession` transport, whose
    /// `URLError` is the original.
    public var transportCause: String? {
        guard case .transport(let error) = self else { return nil }
        return error.userInfo[Self.transportCauseKey] as? String
    }

    /// The key of ``transportCause`` in a `URLError`'s user info.
    static let transportCauseKey = "ECNetworkingTransportCause"

    /// Decodes the carried response's body, for example an API's JSON error, or returns `nil` when
    /// there is no response or the body is not of that shape.
    ///
    /// ```swift
    /// catch let error as NetworkError {
    ///     if let apiError = error.decodeBody(APIError.self) { show(apiError.message) }
    /// }
    /// ```
    public func decodeBody<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) -> T? {
        guard let response else { return nil }
        return try? decoder.decode(type, from: response.body)
    }

    /// Whether this error means the send was cancelled.
    public var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }
}

extension NetworkError {
    /// A request body whose bytes were not the length it announced, which every transport refuses
    /// rather than frame the request by either.
    static let announcedLengthMismatch = NetworkError.invalidRequest(
        reason: "the request body's length differs from the length it announced")

    /// Maps what the transport or a task threw to the error a caller sees: every form of
    /// cancellation (`CancellationError`, `URLError.cancelled`) becomes ``cancelled``, a `URLError`
    /// becomes ``transport(_:)`` with of its user info only what holds no secret
    /// (`URLError.withoutSecrets(_:)`), and anything else passes through unchanged.
    static func normalize(_ error: any Error) -> any Error {
        switch error {
        case is CancellationError:
            return NetworkError.cancelled
        case let urlError as URLError:
            return urlError.code == .cancelled
                ? NetworkError.cancelled : NetworkError.transport(urlError.withoutSecrets())
        default:
            return error
        }
    }
}
