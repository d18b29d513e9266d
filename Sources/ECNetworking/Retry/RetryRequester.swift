/// Who asked for a retry: a completed action or the retry policy.
///
/// Both draw on one allowance, ``NetworkConfiguration/maximumRetries``; ``RequestMetrics/retriedBy``
/// lists who asked for each retry a send made.
public enum RetryRequester: Sendable, Hashable {
    /// A ``ResponseCompletedAction`` returned ``ResponseDecision/retry(after:)``; carries the
    /// action's type name.
    case completedAction(String)
    /// The configuration's ``RetryPolicy``, after a failure it retries.
    case retryPolicy
}
