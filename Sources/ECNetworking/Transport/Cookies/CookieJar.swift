import Foundation

/// Cookies kept in memory, as RFC 6265 says a user agent keeps them: each server's cookies go back
/// to it alone (domain and path matching), `Secure` ones over https only, until they expire.
///
/// A network keeps one of its own by default (``CookieStorage/perNetwork``), so two networks, two
/// users' networks on a server say, never see each other's cookies. Share one between networks with
/// ``CookieStorage/jar(_:)``:
///
/// ```swift
/// let jar = CookieJar()
/// var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!)
/// configuration.cookieStorage = .jar(jar)
/// ```
///
/// On sign-out, ``removeAll()`` forgets every cookie.
///
/// A server cannot make a jar grow without bound: it keeps at most ``maximumCookieCount`` cookies,
/// at most ``maximumCookiesPerDomain`` for one domain (the oldest go first), and ignores a cookie
/// whose name and value exceed 4,096 bytes. Its description and `dump` show how many cookies it
/// holds, never a value.
public final class CookieJar: Sendable, CustomStringConvertible, CustomReflectable {
    /// The most cookies the jar keeps.
    public let maximumCookieCount: Int
    /// The most cookies the jar keeps for one domain.
    public let maximumCookiesPerDomain: Int
    /// The cookies, oldest first, so that eviction and the order a header lists them in (RFC 6265,
    /// 5.4: longer paths first, then earlier creation) need no creation time of their own.
    private let cookies = InlineLockedState([SetCookie]())

    /// An empty jar that keeps at most `maximumCookieCount` cookies, `maximumCookiesPerDomain` of
    /// them for one domain.
    public init(maximumCookieCount: Int = 3_000, maximumCookiesPerDomain: Int = 50) {
        self.maximumCookieCount = max(1, maximumCookieCount)
        self.maximumCookiesPerDomain = max(1, maximumCookiesPerDomain)
    }

    /// Forgets every cookie, as a logout does.
    public func removeAll() {
        cookies.withLock { $0.removeAll() }
    }

    /// How many cookies the jar holds, expired ones not yet dropped included.
    public var count: Int {
        cookies.withLock { $0.count }
    }

    /// The jar and how many cookies it holds; never a cookie's name or value.
    public var description: String {
        "CookieJar(\(count) cookies)"
    }

    /// No children, so that `dump` shows no cookie.
    public var customMirror: Mirror {
        Mirror(self, children: ["count": count], displayStyle: .class)
    }
}

extension CookieJar: CookieStore {
    /// The value of the `Cookie` header a request to `url` carries, or `nil` when no cookie goes
    /// to it.
    public func cookieHeader(for url: URL) -> String? {
        let matching = cookies.withLock { cookies -> [SetCookie] in
            // An empty jar, the common case on every send, costs the lock alone: no URL is parsed
            // and the clock is not read.
            guard !cookies.isEmpty, let host = url.host?.lowercased() else { return [] }
            let now = Date()
            cookies.removeAll { $0.expiry.map { $0 <= now } ?? false }
            return cookies.filter { $0.isSent(to: url, host: host, now: now) }
        }
        guard !matching.isEmpty else { return nil }
        // Longer paths first; the sort is stable, so equal paths keep their creation order.
        let ordered = matching.enumerated().sorted { left, right in
            left.element.path.count != right.element.path.count
                ? left.element.path.count > right.element.path.count : left.offset < right.offset
        }
        return ordered.map { "\($0.element.name)=\($0.element.value)" }.joined(separator: "; ")
    }

    /// Keeps the cookies of `setCookieFields`, the `Set-Cookie` values of a response to `url`;
    /// a cookie already set for the same name, domain and path is replaced, and one that has
    /// expired is removed.
    public func store(setCookieFields: [String], from url: URL) {
        let now = Date()
        let received = SetCookie.fields(of: setCookieFields).compactMap { SetCookie($0, from: url, now: now) }
        guard !received.isEmpty else { return }
        cookies.withLock { cookies in
            for cookie in received {
                let existing = cookies.firstIndex {
                    $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path
                }
                let isExpired = cookie.expiry.map { $0 <= now } ?? false
                if let existing {
                    if isExpired {
                        cookies.remove(at: existing)
                    } else {
                        // Replaced in place: it keeps its creation order (5.3, step 11).
                        cookies[existing] = cookie
                    }
                    continue
                }
                guard !isExpired else { continue }
                let sameDomain = cookies.indices.filter { cookies[$0].domain == cookie.domain }
                if sameDomain.count >= maximumCookiesPerDomain, let oldest = sameDomain.first {
                    cookies.remove(at: oldest)
                }
                if cookies.count >= maximumCookieCount { cookies.removeFirst() }
                cookies.append(cookie)
            }
        }
    }
}
