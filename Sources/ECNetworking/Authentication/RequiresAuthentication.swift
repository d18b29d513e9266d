/// Whether ``AuthenticatingAction`` authenticates a request; `true` by default.
///
/// Turn it off for requests that must go out without a credential, such as the login or
/// token-refresh request itself:
/// ```swift
/// request.customProperties[RequiresAuthentication.self] = false
/// ```
/// The string key `"requiresAuthentication"` is honoured too: `customProperties["requiresAuthentication"] = false`.
public enum RequiresAuthentication: CustomPropertyKey {
    /// Requests are authenticated unless they say otherwise.
    public static let defaultValue = true
}

extension CustomProperties {
    /// Whether the request wants authentication: both the typed key and the string key
    /// can opt it out, so that code written for either style keeps working.
    var requiresAuthentication: Bool {
        self[RequiresAuthentication.self] && (self["requiresAuthentication"] as? Bool ?? true)
    }
}
