/// How redirects are followed.
///
/// Only redirects to `http` and `https` URLs are followed, whatever the policy: one to any other
/// scheme (`file:`, `data:`, `ftp:`) fails with ``NetworkError/redirectRefused(scheme:)``, unless
/// ``followsRedirects`` is `false`, which returns every 3xx as it is.
///
/// On a redirect to another origin (scheme, host or port), credentials are not forwarded:
/// FoundationNetworking on Linux forwards a manually set `Authorization` header today, so the
/// library strips the headers named in ``headersRemovedAcrossOrigins`` itself.
public struct RedirectPolicy: Sendable, Hashable {
    /// Whether redirects are followed at all; when not, the 3xx response is returned as it is.
    public var followsRedirects: Bool
    /// How many redirects one request may follow before it fails with
    /// ``NetworkError/tooManyRedirects(limit:)``.
    public var maximumRedirects: Int
    /// Headers removed when a redirect leads to another origin; compared without regard to case.
    public var headersRemovedAcrossOrigins: Set<String>

    /// Creates a policy; by default it follows up to 10 redirects and drops `Authorization`,
    /// `Proxy-Authorization` and `Cookie` across origins.
    public init(
        followsRedirects: Bool = true,
        maximumRedirects: Int = 10,
        headersRemovedAcrossOrigins: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie"]
    ) {
        self.followsRedirects = followsRedirects
        self.maximumRedirects = maximumRedirects
        self.headersRemovedAcrossOrigins = headersRemovedAcrossOrigins
    }

    /// Follows up to 10 redirects, dropping credentials across origins.
    public static let `default` = RedirectPolicy()

    /// Returns 3xx responses as they are.
    public static let never = RedirectPolicy(followsRedirects: false)
}
