/// Whether an identical GET already on the wire may answer this request too; `true` by default.
///
/// Turn it off for a request whose caller needs its own round trip (a poll that must reach the
/// server, a request whose answer differs per call):
/// ```swift
/// request.customProperties[AllowsCoalescing.self] = false
/// ```
public enum AllowsCoalescing: CustomPropertyKey {
    /// Coalescing is allowed unless a request says otherwise.
    public static let defaultValue = true
}
