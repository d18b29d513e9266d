/// What the metrics hook learns about each finished send; the successor of ELWebService's
/// `responseTime` and `responseJSONTime`, measured on every platform.
public struct RequestMetrics: Sendable {
    /// The request as last sent, or as built when it never reached the wire.
    public var request: NetworkRequest
    /// The status of the last response, if one arrived.
    public var statusCode: Int?
    /// How many times the request was sent (1 without retries; 0 when it failed before sending).
    public var attempts: Int
    /// How long each stage took.
    public var timings: NetworkTimings
    /// Why the send failed, or `nil` when it succeeded.
    public var error: (any Error)?

    /// Creates metrics.
    public init(
        request: NetworkRequest,
        statusCode: Int?,
        attempts: Int,
        timings: NetworkTimings,
        error: (any Error)?
    ) {
        self.request = request
        self.statusCode = statusCode
        self.attempts = attempts
        self.timings = timings
        self.error = error
    }
}
