/// How redirects are followed.
///
/// Only redirects to `http` and `https` URLs are followed, whatever the policy: one to any other
/// scheme (`file:`, `data:`, `ftp:`) fails with ``NetworkError/redirectRefused(scheme:)``, unless
/// ``followsRedirects`` is `false`, which returns every 3xx as it is.
///
/// On a redirect to another origin (scheme, host or port), credentials are not forwarded:
/// FoundationNetworking on Linux forwards a manually set `Authorization` header today, so the
/// library itself strips every header that ``NetworkConfiguration/sensitiveData`` names (by
/// default `Authorization`, `Proxy-Authorization`, `Cookie`, `X-Api-Key`, `X-Auth-Token` and the
/// like; see ``SensitiveData/defaultHeaders``), the same list the logs redact.
public struct RedirectPolicy: Sendable, Hashable {
    /// Whether redirects are followed at all; when not, the 3xx response is returned as it is.
    public var followsRedirects: Bool
    /// How many redirects one request may follow before it fails with
    /// ``NetworkError/tooManyRedirects(limit:)``.
    public var maximumRedirects: Int

    /// Creates a policy; by default it follows up to 10 redirects.
    public init(
        followsRedirects: Bool = true,
        maximumRedirects: Int = 10
    ) {
        self.followsRedirects = followsRedirects
        self.maximumRedirects = maximumRedirects
    }

    /// Follows up to 10 redirects, dropping credentials across origins.
    public static let `default` = RedirectPolicy()

    /// Returns 3xx responses as they are.
    public static let never = RedirectPolicy(followsRedirects: false)
}
