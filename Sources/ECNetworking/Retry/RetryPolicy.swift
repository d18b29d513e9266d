import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Retries attempts that failed for a reason that may pass: a retryable status (408, 429, 5xx
/// gateway errors) or a transport error (timed out, connection lost, cannot connect, DNS), with
/// exponential back-off, jitter, and `Retry-After` honoured.
///
/// ```swift
/// configuration.retryPolicy = RetryPolicy(maximumAttempts: 4, baseDelay: .milliseconds(200))
/// ```
///
/// Only idempotent methods are retried by default (GET, HEAD, OPTIONS, PUT, DELETE); a request
/// opts in or out with ``RetryableRequest``. Each retry runs the will-begin actions again. When the
/// attempts run out the send fails with ``NetworkError/retriesExhausted(attempts:lastError:)``.
/// Cancelling during a back-off ends the send at once.
public struct RetryPolicy: Sendable {
    /// The most attempts one send makes, the first included; 3 by default.
    public var maximumAttempts: Int
    /// The delay before the first retry; each later one is `multiplier` times longer.
    public var baseDelay: Duration
    /// The longest delay, also the cap on a server's `Retry-After`.
    public var maximumDelay: Duration
    /// How much longer each delay is than the one before; 2 by default.
    public var multiplier: Double
    /// The share of each delay that is random (0 to 1), so clients that failed together do not
    /// retry together; 0.5 by default.
    public var jitter: Double
    /// Statuses worth retrying.
    public var retryableStatusCodes: Set<Int>
    /// Transport errors worth retrying.
    public var retryableErrorCodes: Set<URLError.Code>
    /// Whether an attempt that hit its timeout is retried; `true` by default.
    public var retriesTimeouts: Bool
    /// Returns a number in 0...1 for the jitter; replace it for deterministic tests.
    public var randomUnit: @Sendable () -> Double

    /// Creates a policy; every argument has the default its property describes.
    public init(
        maximumAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(30),
        multiplier: Double = 2,
        jitter: Double = 0.5,
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableErrorCodes: Set<URLError.Code> = [
            .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
            .notConnectedToInternet,
        ],
        retriesTimeouts: Bool = true,
        randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableErrorCodes = retryableErrorCodes
        self.retriesTimeouts = retriesTimeouts
        self.randomUnit = randomUnit
    }

    /// Whether `error`, thrown by attempt number `attempt` of `request`, should be retried.
    public func shouldRetry(_ request: NetworkRequest, after error: any Error, attempt: Int) -> Bool {
        guard attempt < maximumAttempts, allowsRetry(of: request) else { return false }
        switch error as? NetworkError {
        case .unacceptableStatusCode(let response)?: return retryableStatusCodes.contains(response.statusCode)
        case .transport(let urlError)?: return retryableErrorCodes.contains(urlError.code)
        case .timedOut?: return retriesTimeouts
        default: return false
        }
    }

    /// The delay before attempt number `attempt + 1`: the server's `Retry-After` when `response`
    /// has one (seconds or an HTTP date), else exponential back-off with jitter; never more than
    /// ``maximumDelay``.
    public func delay(after attempt: Int, response: NetworkResponse?, now: Date = Date()) -> Duration {
        if let retryAfter = response?.headers["Retry-After"].flatMap({ Self.parseRetryAfter($0, now: now) }) {
            return min(retryAfter, maximumDelay)
        }
        let exponential = baseDelay * pow(multiplier, Double(max(0, attempt - 1)))
        let capped = min(exponential, maximumDelay)
        let clampedJitter = min(max(jitter, 0), 1)
        return capped * (1 - clampedJitter * min(max(randomUnit(), 0), 1))
    }

    private func allowsRetry(of request: NetworkRequest) -> Bool {
        request.customProperties[RetryableRequest.self] ?? request.method.isIdempotent
    }

    /// Reads `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3).
    static func parseRetryAfter(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }
}
