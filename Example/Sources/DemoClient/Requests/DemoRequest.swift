import ECNetworking

/// An endpoint of the demo API: a ``Request`` that says whether it needs a bearer token.
///
/// ```swift
/// struct ListUsersRequest: DemoRequest {
///     typealias Response = [User]
///     func buildRequest(with baseURL: URL) -> NetworkRequest { … }
/// }
/// ```
///
/// The answer travels to the actions as the custom property ``RequiresAuthentication``, which is
/// what `AuthenticatingAction` reads: a request that says `false` goes out without a token and
/// never waits for a login.
public protocol DemoRequest: Request {
    /// Whether the request carries the bearer token; `true` unless an endpoint says otherwise.
    var requiresAuthentication: Bool { get }
}

extension DemoRequest {
    /// Every endpoint needs a token unless it opts out, so forgetting the flag fails safe.
    public var requiresAuthentication: Bool { true }

    /// ``requiresAuthentication`` as a typed custom property, so actions read it without casts.
    public var customProperties: CustomProperties {
        var properties = CustomProperties()
        properties[RequiresAuthentication.self] = requiresAuthentication
        return properties
    }
}
