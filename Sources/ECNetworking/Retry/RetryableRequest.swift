/// Whether ``RetryPolicy`` may retry a request, overriding the rule that only idempotent methods
/// are retried: set `true` on a POST that is safe to repeat (it carries an idempotency key), or
/// `false` on a GET that must not be repeated.
///
/// ```swift
/// request.customProperties[RetryableRequest.self] = true
/// ```
public enum RetryableRequest: CustomPropertyKey {
    /// `nil`: decided by the method.
    public static let defaultValue: Bool? = nil
}
