import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``CookieStorage/system``: the cookies of `HTTPCookieStorage.shared`, parsed and matched by
/// Foundation.
struct SystemCookieStore: CookieStore {
    func cookieHeader(for url: URL) -> String? {
        guard let cookies = HTTPCookieStorage.shared.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    func store(setCookieFields: [String], from url: URL) {
        // Foundation splits a joined value itself; one field per cookie keeps that unambiguous.
        let cookies = SetCookie.fields(of: setCookieFields).flatMap { field in
            HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": String(field)], for: url)
        }
        HTTPCookieStorage.shared.setCookies(cookies, for: url, mainDocumentURL: nil)
    }
}
