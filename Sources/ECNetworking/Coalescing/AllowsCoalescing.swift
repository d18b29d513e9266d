/// Whether an identical GET in progress may answer this request too, on a network that
/// coalesces (``NetworkConfiguration/coalescesIdenticalRequests``, off by default); `true` by
/// default, so turning coalescing on for the network covers every GET.
///
/// Turn it off for a request whose caller needs its own round trip (a poll that must reach the
/// server, a request whose answer differs per call):
/// ```swift
/// request.customProperties[AllowsCoalescing.self] = false
/// ```
public enum AllowsCoalescing: CustomPropertyKey {
    /// Coalescing is allowed, where the network coalesces, unless a request says otherwise.
    public static let defaultValue = true
}
