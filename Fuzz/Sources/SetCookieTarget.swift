// What a server sets with `Set-Cookie`: every field of a response goes through RFC 6265's storage
// model into a cookie jar, and the jar's cookies go back out in the `Cookie` header of later
// requests, so what the server controls here reaches other requests, and other hosts if the jar
// let it.
//
// Input: the first byte picks the URL the response came from (https or plain http, a name or an
// IP address, a short or a deep path); the rest, split at line feeds, are the `Set-Cookie` field
// values. Checks: every cookie kept has a name, a bounded size, a path starting with `/` and a
// domain the URL's host belongs to (never a bare top-level label), is `Secure` only over https,
// and holds no control character; the jar keeps no more cookies than its bounds; the `Cookie`
// header it makes holds no control character (a CR, LF or NUL there would be a header of the
// server's own making on the next request) and names only cookies that were set; and no cookie
// goes to an unrelated host or to one that only ends with the same letters.

import Foundation

@testable import ECNetworking

enum SetCookieTarget: FuzzTarget {
    static let name = "set-cookie"
    static let warmUp = Array(
        "\u{0}sid=abc; Path=/; Secure; HttpOnly\nlang=en; Domain=example.com; Max-Age=60\ntheme=dark; Expires=Sun, 06 Nov 2094 08:49:37 GMT, b=2"
            .utf8)

    /// Where a response may come from, and the hosts its cookies must never reach.
    static let origins = [
        URL(string: "https://api.example.com/v1/items")!,
        URL(string: "http://api.example.com/")!,
        URL(string: "https://127.0.0.1:8443/a/b/c")!,
        URL(string: "https://sub.api.example.com/x/")!,
    ]
    static let strangers = [
        URL(string: "https://other.test/")!,
        URL(string: "https://api.example.com.evil.test/v1/items")!,
        URL(string: "https://notexample.com/")!,
        URL(string: "https://com/")!,
    ]

    static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let url = origins[Int(selector) % origins.count]
        let host = url.host!.lowercased()
        let values = fields(Array(input.dropFirst()), separator: UInt8(ascii: "\n")).map { text($0) }
        let now = Date()

        let parsed = SetCookie.fields(of: values).compactMap { SetCookie($0, from: url, now: now) }
        for cookie in parsed {
            check(!cookie.name.isEmpty, "a cookie without a name was kept")
            check(
                cookie.name.utf8.count + cookie.value.utf8.count <= SetCookie.maximumByteCount,
                "a cookie of \(cookie.name.utf8.count + cookie.value.utf8.count) bytes was kept")
            check(cookie.path.hasPrefix("/"), "cookie path \(cookie.path.debugDescription) is not absolute")
            check(
                cookie.domain == host || (host.hasSuffix("." + cookie.domain) && cookie.domain.contains(".")),
                "a response from \(host) set a cookie for \(cookie.domain.debugDescription)")
            check(!cookie.isSecure || url.scheme == "https", "a Secure cookie was taken over plain http")
            for part in [cookie.name, cookie.value, cookie.path, cookie.domain] {
                check(!hasControlCharacter(part), "cookie part \(part.debugDescription) holds a control character")
            }
        }

        let jar = CookieJar(maximumCookieCount: 8, maximumCookiesPerDomain: 4)
        jar.store(setCookieFields: values, from: url)
        check(jar.count <= 8, "the jar keeps \(jar.count) cookies, over its bound of 8")

        if let header = jar.cookieHeader(for: url) {
            check(!hasControlCharacter(header), "Cookie header \(header.debugDescription) holds a control character")
            let names = Set(parsed.map { (cookie: SetCookie) in cookie.name })
            for pair in header.split(separator: ";") {
                let name = String(pair.prefix { $0 != "=" }).trimmingCharacters(in: .whitespaces)
                check(names.contains(name), "Cookie header names \(String(pair).debugDescription), which no field set")
            }
        }
        for stranger in strangers {
            let header = jar.cookieHeader(for: stranger)
            check(header == nil, "a cookie set by \(host) went to \(stranger.host!): \(header.debugDescription)")
        }
    }

    /// Whether `text` holds a control character other than a tab (RFC 6265bis, 5.6: such a field
    /// is ignored whole).
    static func hasControlCharacter(_ text: String) -> Bool {
        text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }
}
