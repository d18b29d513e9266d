import Foundation

/// The scheme, host and port of a URL: the unit a redirect must stay within for credentials to
/// follow it.
///
/// Default ports are made explicit, so `http://example.com` and `http://example.com:80` are one
/// origin, while `http://127.0.0.1:8080` and `http://127.0.0.1:8081` are two: another port is
/// another server, which must not see the first one's credentials.
struct Origin: Hashable, Sendable {
    let scheme: String
    let host: String
    let port: Int?

    /// The origin of `url`, or `nil` when it has no scheme or host (such a URL cannot be compared,
    /// so callers treat it as a different origin).
    init?(_ url: URL?) {
        guard let url, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            return nil
        }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? Self.defaultPort(for: scheme)
    }

    /// Whether two URLs share an origin; a URL without one is never the same as anything.
    static func same(_ first: URL?, _ second: URL?) -> Bool {
        guard let first = Origin(first), let second = Origin(second) else { return false }
        return first == second
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
