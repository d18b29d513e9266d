import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a network keeps the cookies its servers set, and which it sends back; see
/// ``NetworkConfiguration/cookieStorage``.
///
/// The network applies it the same way over every transport, on every redirect hop: a response's
/// `Set-Cookie` fields are stored, and the cookies for a request's URL are added to its `Cookie`
/// header. A `Cookie` header the request carries itself (set by the caller or an action) is always
/// sent: stored cookies are appended after it, and one of the same name is left out.
public struct CookieStorage: Sendable {
    enum Kind: Sendable {
        case perNetwork
        case jar(CookieJar)
        case system
        case disabled
    }

    let kind: Kind

    /// Each network keeps a ``CookieJar`` of its own, in memory: the default. Two networks never
    /// see each other's cookies, even over one shared transport.
    public static let perNetwork = CookieStorage(kind: .perNetwork)

    /// The networks configured with it share `jar`.
    public static func jar(_ jar: CookieJar) -> CookieStorage {
        CookieStorage(kind: .jar(jar))
    }

    /// The process's `HTTPCookieStorage.shared`, as a plain `URLSession` uses it: every network
    /// configured so, and every `URLSession` with the default configuration, share one jar (on
    /// Apple platforms also persisted, and shared with the app's web views).
    public static let system = CookieStorage(kind: .system)

    /// No cookie is stored or added; a request's own `Cookie` header is sent as it is.
    public static let disabled = CookieStorage(kind: .disabled)

    /// The store a new network uses.
    func makeStore() -> (any CookieStore)? {
        switch kind {
        case .perNetwork: CookieJar()
        case .jar(let jar): jar
        case .system: SystemCookieStore()
        case .disabled: nil
        }
    }
}
