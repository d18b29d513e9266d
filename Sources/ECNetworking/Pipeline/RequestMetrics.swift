/// What the metrics hook learns about each finished send: its outcome, attempts and the time each
/// stage took, measured on every platform.
///
/// Its descriptions (`print`, `dump`) redact secrets as described on ``SensitiveData``.
public struct RequestMetrics: Sendable {
    /// The request as last sent, or as built when it never reached the wire. The network hands
    /// the hook a redacted copy, made with ``NetworkConfiguration/sensitiveData``: sensitive header
    /// values, query parameter values and body fields read `<redacted>` (`%3Credacted%3E` inside the
    /// URL, whose userinfo is replaced too), and a JSON body that was never encoded is left out.
    /// Method, host, path and other headers are as sent.
    public var request: NetworkRequest
    /// The status of the last response, if one arrived.
    public var statusCode: Int?
    /// How many times the request was sent (1 without retries; 0 when it failed before sending).
    public var attempts: Int
    /// Who asked for each retry, in order: one entry per attempt after the first.
    public var retriedBy: [RetryRequester]
    /// How long each stage took.
    public var timings: NetworkTimings
    /// Why the send failed, or `nil` when it succeeded: the error the caller got. The network
    /// hands the hook a redacted copy: the same case, with each ``NetworkResponse`` it carries
    /// (its request, headers, URL and body fields) and a `URLError`'s failing URL redacted as
    /// ``request`` is, and without the response's ``NetworkResponse/httpURLResponse``; an error
    /// of any other type is as thrown. For a streamed send (a stream, a download, a Server-Sent Events
    /// connection, an OpenAPI operation) it is also the error that ended the body, when the
    /// transfer broke, went idle too long or grew too large after the head.
    public var error: (any Error)?
    /// How many bytes of the last response's body arrived, or `nil` when no response did. A
    /// streamed send is reported when its body ends, so this counts the bytes to that end:
    /// those of a download that broke at 90 % are there.
    public var responseBodyByteCount: Int64?

    /// Creates metrics.
    public init(
        request: NetworkRequest,
        statusCode: Int?,
        attempts: Int,
        retriedBy: [RetryRequester] = [],
        timings: NetworkTimings,
        error: (any Error)?,
        responseBodyByteCount: Int64? = nil
    ) {
        self.request = request
        self.statusCode = statusCode
        self.attempts = attempts
        self.retriedBy = retriedBy
        self.timings = timings
        self.error = error
        self.responseBodyByteCount = responseBodyByteCount
    }
}
