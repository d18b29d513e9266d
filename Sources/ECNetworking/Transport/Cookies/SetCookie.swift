import Foundation

/// One cookie as a server set it, after RFC 6265's storage model (section 5.3) has been applied
/// to the request that received it: its domain, path and expiry are settled.
struct SetCookie: Sendable, Equatable {
    var name: String
    var value: String
    /// The lower-cased host (host-only) or domain it is sent to.
    var domain: String
    /// Sent only to `domain` itself, not to its subdomains: set without a `Domain` attribute.
    var isHostOnly: Bool
    var path: String
    /// Sent over https only.
    var isSecure: Bool
    /// When it stops being sent; `nil` for a session cookie, kept until the jar goes away.
    var expiry: Date?

    /// The longest `name=value` a jar keeps, as browsers do (4,096 bytes): a server cannot make a
    /// jar hold more than its cookie count times this.
    static let maximumByteCount = 4_096

    /// The cookie a `Set-Cookie` field value sets for a response to `url`, or `nil` when RFC 6265
    /// says to ignore it: a control character other than a tab, no `=`, an empty name, too long, a
    /// `Domain` the URL's host does not belong to (or a single label, such as `com`), or `Secure`
    /// set over plain http.
    init?(_ field: Substring, from url: URL, now: Date) {
        // RFC 6265bis, 5.6: a field with a control character is ignored whole. Kept, its value
        // would go back in the `Cookie` header of later requests, where a CR, LF or NUL would be a
        // line of the server's own making.
        guard !field.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        var parts = field.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let pair = parts.next(), let equals = pair.firstIndex(of: "=") else { return nil }
        name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= Self.maximumByteCount else { return nil }

        var domainAttribute: String?
        var pathAttribute: String?
        var maxAge: Date?
        var expires: Date?
        isSecure = false
        while let attribute = parts.next() {
            let key: Substring
            let attributeValue: String
            if let equals = attribute.firstIndex(of: "=") {
                key = attribute[..<equals]
                attributeValue = attribute[attribute.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            } else {
                key = attribute
                attributeValue = ""
            }
            // RFC 6265bis: an attribute value over 1,024 bytes is ignored, which bounds a stored
            // cookie's path as the name and value are bounded.
            guard attributeValue.utf8.count <= 1_024 else { continue }
            switch key.trimmingCharacters(in: .whitespaces).lowercased() {
            case "expires":
                if let date = HTTPDate.parse(attributeValue) { expires = date }
            case "max-age":
                // Digits with an optional leading minus; anything else is ignored (5.2.2).
                if let seconds = Int(attributeValue),
                    attributeValue.first.map({ $0 == "-" || $0.isASCII && $0.isNumber }) == true
                {
                    maxAge =
                        seconds <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(min(seconds, 400 * 86_400)))
                }
            case "domain":
                var domain = attributeValue.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                if !domain.isEmpty { domainAttribute = domain }
            case "path":
                if attributeValue.hasPrefix("/") { pathAttribute = attributeValue }
            case "secure":
                isSecure = true
            default:
                break
            }
        }
        // Max-Age wins over Expires (5.3, step 3).
        expiry = maxAge ?? expires

        if let domainAttribute {
            // A domain must be the host or one it belongs to, and never a bare top-level label: a
            // server may not set a cookie for every site under `com`.
            guard Self.domain(domainAttribute, matches: host), domainAttribute.contains(".") || domainAttribute == host
            else { return nil }
            domain = domainAttribute
            isHostOnly = false
        } else {
            domain = host
            isHostOnly = true
        }
        path = pathAttribute ?? Self.defaultPath(of: url)
        // RFC 6265bis: a cookie marked Secure is not taken from a plain-http response.
        if isSecure, url.scheme?.lowercased() != "https" { return nil }
    }

    /// Whether the cookie goes with a request to `url` (RFC 6265, 5.4).
    func isSent(to url: URL, host: String, now: Date) -> Bool {
        if let expiry, expiry <= now { return false }
        if isSecure, url.scheme?.lowercased() != "https" { return false }
        guard isHostOnly ? host == domain : Self.domain(domain, matches: host) else { return false }
        let requestPath = Self.rawPath(of: url)
        return Self.path(path, matches: requestPath.isEmpty ? "/" : requestPath)
    }

    /// Domain matching (5.1.3): the same string, or `host` ends in `.domain` and is a name, not an
    /// IP address.
    static func domain(_ domain: String, matches host: String) -> Bool {
        if host == domain { return true }
        guard host.hasSuffix("." + domain) else { return false }
        return !host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" }
    }

    /// Path matching (5.1.4).
    static func path(_ cookiePath: String, matches requestPath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath.dropFirst(cookiePath.count).first == "/"
    }

    /// The default path (5.1.4): the request path up to, not including, its last `/`.
    static func defaultPath(of url: URL) -> String {
        let path = rawPath(of: url)
        guard path.hasPrefix("/"), let lastSlash = path.lastIndex(of: "/"), lastSlash != path.startIndex else {
            return "/"
        }
        return String(path[..<lastSlash])
    }

    /// The path as the URL spells it: `URL.path` drops a trailing `/` and decodes percent escapes,
    /// and RFC 6265 compares the path as sent.
    static func rawPath(of url: URL) -> String {
        url.path(percentEncoded: true)
    }

    /// The cookies of each `Set-Cookie` field value. A `URLSession` joins repeated fields into one
    /// value with `", "`, which also appears inside an `Expires` date, so a comma separates two
    /// cookies only when `name=` follows it.
    static func fields(of values: [String]) -> [Substring] {
        values.flatMap { value -> [Substring] in
            var fields: [Substring] = []
            var start = value.startIndex
            var index = value.startIndex
            while let comma = value[index...].firstIndex(of: ",") {
                let next = value.index(after: comma)
                if startsWithCookieName(value[next...]) {
                    fields.append(value[start..<comma])
                    start = next
                }
                index = next
            }
            fields.append(value[start...])
            return fields
        }
    }

    /// Whether `text` starts, after spaces, with a token and `=`.
    private static func startsWithCookieName(_ text: Substring) -> Bool {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex else { return false }
        return !trimmed[..<equals].contains { $0 == " " || $0 == ";" || $0 == "," || $0 == "\t" }
    }
}
