import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns the request a redirect proposes into the one that is sent.
///
/// On a redirect to another origin it removes the headers ``SensitiveData`` names, the list the
/// logs redact too: FoundationNetworking on Linux copies every header of the previous request, so a
/// manually set `Authorization` would otherwise reach another server, even one on another port of
/// the same host.
///
/// On Linux it also adds the cookies the session stores for the new URL, which FoundationNetworking
/// does for redirects it follows on its own but skips for redirects its delegate approves; without
/// this, a cookie set by the redirect itself (a login redirect) would be missing from the next
/// request.
struct RedirectRewriter: Sendable {
    /// The sensitive names, prepared once for every redirect.
    private let redaction: Redaction
    /// Where the session keeps cookies, or `nil` when it sets none.
    private let cookieStorage: HTTPCookieStorage?

    init(sensitiveData: SensitiveData, configuration: URLSessionConfiguration) {
        redaction = Redaction(sensitiveData)
        cookieStorage = configuration.httpShouldSetCookies ? configuration.httpCookieStorage : nil
    }

    /// The request to send for the redirect to `proposed`, for a task that first asked for
    /// `originalURL`: credentials were meant for that origin, so every hop is compared with it.
    func request(for proposed: URLRequest, originalURL: URL?) -> URLRequest {
        var request = proposed
        if !Origin.same(originalURL, proposed.url) {
            for name in (proposed.allHTTPHeaderFields ?? [:]).keys
            where redaction.isSensitiveHeader(name) {
                request.setValue(nil, forHTTPHeaderField: name)
            }
        }
        #if canImport(FoundationNetworking)
            // The same rule FoundationNetworking applies to the redirects it follows itself: the
            // stored cookies for the new URL, when there are any, replace the Cookie header.
            if let cookieStorage, let url = request.url, let cookies = cookieStorage.cookies(for: url),
                let cookie = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"], !cookie.isEmpty
            {
                request.setValue(cookie, forHTTPHeaderField: "Cookie")
            }
        #endif
        return request
    }
}
