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
/// opts in or out with ``RetryableRequest``. Each retry runs the will-begin actions again.
///
/// Its retries count against the send's ``NetworkConfiguration/maximumRetries``, which the retries
/// completed actions ask for share: a send makes at most `maximumRetries` retries in all, and the
/// policy stops sooner once the send has made ``maximumAttempts`` attempts. When the policy would
/// retry a failure but no attempt is left, the send fails with
/// ``NetworkError/retriesExhausted(attempts:lastError:)``.
/// Cancelling during a back-off ends the send at once.
///
/// Every setting is accepted, so a computed value can never crash an app; one out of range is
/// read as the nearest sensible value when a delay is computed: fewer than 1 attempt means no
/// retry, a negative delay means zero, a multiplier below 1 or NaN means 1 (an infinite one
/// reaches the cap from the second retry on), and a jitter or random unit outside 0...1 is
/// clamped into it (NaN counts as 0). Whatever the settings and the attempt number, a delay lies
/// within zero and ``maximumDelay``, which wins over ``baseDelay`` when it is smaller.
public struct RetryPolicy: Sendable {
    /// The most attempts the policy lets one send make, the first included; 3 by default. Below 1
    /// means 1: no retry. The send's ``NetworkConfiguration/maximumRetries`` bounds the total too,
    /// so raise it along with this for more than four attempts.
    public var maximumAttempts: Int
    /// The delay before the first retry; each later one is `multiplier` times longer. Below zero
    /// means zero.
    public var baseDelay: Duration
    /// The longest delay, also the cap on a server's `Retry-After`. Below zero means zero.
    public var maximumDelay: Duration
    /// How much longer each delay is than the one before; 2 by default. Below 1, or NaN, means 1.
    public var multiplier: Double
    /// The share of each delay that is random (0 to 1), so clients that failed together do not
    /// retry together; 0.5 by default. Clamped into 0...1; NaN means 0.
    public var jitter: Double
    /// Statuses worth retrying.
    public var retryableStatusCodes: Set<Int>
    /// Transport errors worth retrying.
    public var retryableErrorCodes: Set<URLError.Code>
    /// Whether an attempt that hit its timeout is retried; `true` by default.
    public var retriesTimeouts: Bool
    /// Returns a number in 0...1 for the jitter; replace it for deterministic tests. Clamped into
    /// 0...1; NaN means 0.
    public var randomUnit: @Sendable () -> Double

    /// Creates a policy; every argument has the default its property describes, and any value is
    /// accepted (see the type's comment for how one out of range is read).
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
    /// has one (seconds or an HTTP date), else exponential back-off with jitter; always within
    /// zero and ``maximumDelay``, for any attempt number (one below 1 counts as 1).
    public func delay(after attempt: Int, response: NetworkResponse?, now: Date = Date()) -> Duration {
        let cap = max(maximumDelay, .zero)
        if let retryAfter = response?.headers["Retry-After"].flatMap({ Self.parseRetryAfter($0, now: now) }) {
            return min(retryAfter, cap)
        }
        let backOff = exponentialDelay(after: attempt, cap: cap)
        let kept = 1 - Self.unitInterval(jitter) * Self.unitInterval(randomUnit())
        // Multiplying goes through `Double`, whose rounding could land above the cap.
        return kept < 1 ? min(backOff * kept, backOff) : backOff
    }

    /// `baseDelay × multiplier^(attempt − 1)`, capped. The cap is applied before the `Duration` is
    /// formed: the product itself overflows `Duration`, and traps, from about attempt 70 with the
    /// defaults, and its `Double` becomes infinite further on.
    private func exponentialDelay(after attempt: Int, cap: Duration) -> Duration {
        let base = max(baseDelay, .zero)
        // `max` first: `attempt - 1` overflows for `Int.min`.
        let exponent = Double(max(attempt, 1) - 1)
        let growth = multiplier >= 1 ? multiplier : 1
        guard base < cap, exponent > 0, growth > 1 else { return min(base, cap) }
        // At least 1 (possibly infinite, never NaN), so the comparison is meaningful.
        let factor = pow(growth, exponent)
        guard base.seconds * factor < cap.seconds else { return cap }
        return min(base * factor, cap)
    }

    /// `value` clamped into 0...1, NaN read as 0.
    private static func unitInterval(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    private func allowsRetry(of request: NetworkRequest) -> Bool {
        request.customProperties[RetryableRequest.self] ?? request.method.isIdempotent
    }

    /// The longest `Retry-After` read, about 31 years: longer values, which the caller caps with
    /// ``maximumDelay`` anyway, are read as this rather than overflow on the way to a `Duration`.
    private static let longestRetryAfter: Double = 1e9

    /// Reads `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3); a time in the
    /// past means zero.
    static func parseRetryAfter(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        let seconds: Double
        if let integer = Int(trimmed) {
            seconds = Double(integer)
        } else if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            // Digits too many for an `Int`: a valid, very long delay.
            seconds = longestRetryAfter
        } else if let date = HTTPDate.parse(trimmed) {
            seconds = date.timeIntervalSince(now)
        } else {
            return nil
        }
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), longestRetryAfter)
        return .milliseconds(Int(clamped * 1000))
    }
}
