import Foundation
import Testing

@testable import ECNetworking

@Suite("CookieJar: RFC 6265 storage and matching")
struct CookieJarTests {
    private let api = URL(string: "https://api.example.com/v1/users")!

    @Test("a cookie goes back to its host and path, not to another host or a sibling path")
    func domainAndPath() {
        let jar = CookieJar()
        jar.store(setCookieFields: ["sid=abc; Path=/v1"], from: api)
        #expect(jar.cookieHeader(for: URL(string: "https://api.example.com/v1/items")!) == "sid=abc")
        #expect(jar.cookieHeader(for: URL(string: "https://api.example.com/v1")!) == "sid=abc")
        #expect(jar.cookieHeader(for: URL(string: "https://api.example.com/v10")!) == nil)
        #expect(jar.cookieHeader(for: URL(string: "https://api.example.com/")!) == nil)
        #expect(jar.cookieHeader(for: URL(string: "https://www.example.com/v1")!) == nil)
        // Host-only: not to a subdomain either.
        #expect(jar.cookieHeader(for: URL(string: "https://eu.api.example.com/v1")!) == nil)
    }

    @Test("without a Path the default path is the request's directory")
    func defaultPath() {
        let jar = CookieJar()
        jar.store(setCookieFields: ["a=1"], from: URL(string: "https://example.com/docs/page")!)
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/docs/other")!) == "a=1")
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/")!) == nil)
    }

    @Test("a Domain cookie reaches subdomains; a foreign or top-level Domain is refused")
    func domainAttribute() {
        let jar = CookieJar()
        jar.store(setCookieFields: ["shared=1; Domain=.example.com; Path=/"], from: api)
        jar.store(setCookieFields: ["evil=1; Domain=other.com; Path=/"], from: api)
        jar.store(setCookieFields: ["tld=1; Domain=com; Path=/"], from: api)
        #expect(jar.cookieHeader(for: URL(string: "https://www.example.com/")!) == "shared=1")
        #expect(jar.cookieHeader(for: URL(string: "https://other.com/")!) == nil)
        #expect(jar.cookieHeader(for: URL(string: "https://google.com/")!) == nil)
        #expect(jar.count == 1)
    }

    /// ConfigurationAndLogging: the jar carries no Public Suffix List, so a suffix many owners share
    /// is a domain like any other. Should the jar learn the list, this fails and the article changes.
    @Test("a cookie for a shared suffix (github.io) goes to every host under it, as the article warns")
    func sharedSuffixIsADomain() {
        let jar = CookieJar()
        jar.store(
            setCookieFields: ["session=1; Domain=github.io; Path=/"], from: URL(string: "https://alice.github.io/")!)
        #expect(jar.cookieHeader(for: URL(string: "https://mallory.github.io/")!) == "session=1")
    }

    @Test("Secure cookies go over https only and are not taken from plain http")
    func secure() {
        let jar = CookieJar()
        jar.store(setCookieFields: ["s=1; Secure; Path=/"], from: URL(string: "https://example.com/")!)
        jar.store(setCookieFields: ["t=1; Secure; Path=/"], from: URL(string: "http://example.com/")!)
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/")!) == "s=1")
        #expect(jar.cookieHeader(for: URL(string: "http://example.com/")!) == nil)
        #expect(jar.count == 1)
    }

    @Test("an expired cookie deletes the stored one; Max-Age wins over Expires")
    func expiry() {
        let jar = CookieJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["a=1; Path=/", "b=2; Path=/; Expires=Wed, 21 Oct 2015 07:28:00 GMT"], from: url)
        #expect(jar.cookieHeader(for: url) == "a=1")
        jar.store(setCookieFields: ["a=gone; Path=/; Max-Age=0"], from: url)
        #expect(jar.cookieHeader(for: url) == nil)
        jar.store(setCookieFields: ["c=3; Path=/; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Max-Age=600"], from: url)
        #expect(jar.cookieHeader(for: url) == "c=3")
    }

    @Test("a value replaces the cookie of the same name, domain and path, keeping its place")
    func replacement() {
        let jar = CookieJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["a=1; Path=/", "b=2; Path=/"], from: url)
        jar.store(setCookieFields: ["a=3; Path=/"], from: url)
        #expect(jar.cookieHeader(for: url) == "a=3; b=2")
    }

    @Test("longer paths come first in the header")
    func order() {
        let jar = CookieJar()
        jar.store(setCookieFields: ["root=1; Path=/", "deep=2; Path=/v1/users"], from: api)
        #expect(jar.cookieHeader(for: api) == "deep=2; root=1")
    }

    @Test("fields a URLSession joined with commas split at each new cookie, not inside an Expires date")
    func joinedFields() {
        let jar = CookieJar()
        let url = URL(string: "https://example.com/")!
        jar.store(
            setCookieFields: ["a=1; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT, b=2; Path=/, c=3; Path=/"], from: url
        )
        #expect(jar.cookieHeader(for: url) == "a=1; b=2; c=3")
    }

    @Test("a server cannot grow the jar without bound")
    func bounded() {
        let jar = CookieJar(maximumCookieCount: 100, maximumCookiesPerDomain: 10)
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: (0..<1_000).map { "c\($0)=v; Path=/" }, from: url)
        #expect(jar.count == 10)
        // The newest stay.
        #expect(jar.cookieHeader(for: url)?.hasPrefix("c990=v") == true)
        jar.store(setCookieFields: ["big=\(String(repeating: "x", count: 5_000)); Path=/"], from: url)
        #expect(jar.cookieHeader(for: url)?.contains("big=") == false)
        for host in 0..<50 {
            jar.store(
                setCookieFields: (0..<10).map { "c\($0)=v; Path=/" }, from: URL(string: "https://h\(host).example/")!)
        }
        #expect(jar.count == 100)
    }

    @Test("its description and dump never show a cookie")
    func redacted() {
        let jar = CookieJar()
        jar.store(setCookieFields: ["sid=planted-cookie-secret; Path=/"], from: api)
        var dumped = ""
        dump(jar, to: &dumped)
        #expect(!dumped.contains("planted-cookie-secret"))
        #expect(!String(describing: jar).contains("planted-cookie-secret"))
        #expect(!String(reflecting: jar).contains("planted-cookie-secret"))
    }

    @Test("a request's own Cookie header comes first and wins over a stored cookie of the same name")
    func ownHeaderKept() {
        let jar = CookieJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["sid=stored; Path=/", "mine=stored; Path=/"], from: url)
        var request = TransportRequest(method: .get, url: url)
        request.headers["Cookie"] = "mine=bob"
        #expect(jar.adding(to: request).headers["Cookie"] == "mine=bob; sid=stored")
        #expect(jar.adding(to: TransportRequest(method: .get, url: url)).headers["Cookie"] == "sid=stored; mine=stored")
    }

    @Test("paths compare as sent: a trailing slash counts, and the default path keeps its directory")
    func rawPaths() {
        let jar = CookieJar()
        jar.store(setCookieFields: ["a=1; Path=/v1/"], from: URL(string: "https://example.com/v1/")!)
        jar.store(setCookieFields: ["b=2"], from: URL(string: "https://example.com/docs/")!)
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/v1/")!) == "a=1")
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/docs/x")!) == "b=2")
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/other")!) == nil)
    }

    @Test("a field with a control character other than a tab is ignored whole, so none reaches a Cookie header")
    func controlCharactersIgnored() throws {
        let jar = CookieJar()
        let url = URL(string: "https://example.com/")!
        let refused = ["a=1\r\nX-Injected: 1", "b=1\u{0}", "c=\u{1}1", "d=1; Path=/\u{7F}", "e\u{1B}=1"]
        jar.store(setCookieFields: refused + ["tab=1\t2; Path=/"], from: url)
        #expect(jar.cookieHeader(for: url) == "tab=1\t2")
        #expect(jar.count == 1)
        // The header the jar makes passes the checks every request's headers pass.
        try HeaderValidation.validate(["Cookie": try #require(jar.cookieHeader(for: url))])
    }

    @Test("an attribute over 1,024 bytes is ignored, so a Path cannot grow a stored cookie")
    func longAttributeIgnored() {
        let jar = CookieJar()
        let url = URL(string: "https://example.com/a/b")!
        jar.store(setCookieFields: ["a=1; Path=/" + String(repeating: "p", count: 2_000)], from: url)
        // The path attribute was dropped: the default path, /a, applies.
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/a/c")!) == "a=1")
    }

    @Test("a request with two Cookie fields keeps both, joined as one list, and its names win")
    func repeatedCookieFields() {
        let jar = CookieJar()
        let url = URL(string: "https://example.com/")!
        jar.store(setCookieFields: ["b=stored; Path=/", "c=3; Path=/"], from: url)
        var request = TransportRequest(method: .get, url: url)
        request.headers.add(name: "Cookie", value: "a=1")
        request.headers.add(name: "Cookie", value: "b=2")
        #expect(jar.adding(to: request).headers["Cookie"] == "a=1; b=2; c=3")
    }
}
