/// What a ``ResponseCompletedAction`` decides about a response.
public enum ResponseDecision: Sendable {
    /// Go on with this response (the one received, or a changed one).
    case proceed(NetworkResponse)
    /// Send the request again after `delay`, from the will-begin stage, so a refreshed credential
    /// is applied. Bounded by ``NetworkConfiguration/maximumRetries``.
    case retry(after: Duration)

    /// Send the request again at once.
    public static var retry: ResponseDecision { .retry(after: .zero) }
}

/// The error a completion-style ``ResponseCompletedAction`` passes to its handler to ask for a retry,
/// since a completion handler can only carry a response or an error.
///
/// ```swift
/// completion(.failure(RetryRequest(after: .seconds(1))))
/// ```
public struct RetryRequest: Error, Sendable {
    /// How long to wait before the next attempt.
    public var delay: Duration

    /// Asks for a retry after `delay`.
    public init(after delay: Duration = .zero) {
        self.delay = delay
    }
}
