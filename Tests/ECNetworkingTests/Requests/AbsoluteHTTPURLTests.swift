import Foundation
import Testing

@testable import ECNetworking

@Suite("WireRequest: which URLs are absolute http(s) with a host")
struct AbsoluteHTTPURLTests {
    /// What `URL` itself says: an http or https scheme, in any case, and a host that is not empty.
    private func foundationSays(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return url.host.map { !$0.isEmpty } ?? false
    }

    @Test(
        "reading the URL's text agrees with URL.scheme and URL.host",
        arguments: [
            "https://api.example.com/v1", "HTTP://a.b", "http://a.b:8080/x?y#z", "https://user:pw@host.example/",
            "https://user@:80/", "http://[::1]:8080/", "http://[::1]/", "http://:80/", "https:///no-host",
            "http:/path", "http:", "ftp://example.com/", "users", "/users", "file:///etc/passwd",
            "mailto:someone@example.com", "ws://example.com/socket", "http://%41/", "http://a.b?q=http://c.d",
            "http://host#frag", "https://h/a@b", "http://u@@h/", "httpx://h/", "htt://h/",
        ]
    )
    func agreesWithFoundation(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(WireRequest.isAbsoluteHTTP(url) == foundationSays(url), "\(text)")
    }

    @Test(
        "a port must be a number from 1 to 65535, or empty for the scheme's own",
        arguments: [
            ("http://h:65535/", true), ("http://h:1", true), ("http://h:0080/x", true), ("http://h:/", true),
            ("http://[::1]:443/", true), ("http://u:99999@h/", true), ("http://127.0.0.1:99999/", false),
            ("http://h:65536/x", false), ("http://h:0/", false), ("http://h:00", false),
            ("http://h:99999999999999999999999/", false), ("http://[::1]:70000/", false), ("http://:8080/", false),
        ])
    func port(text: String, usable: Bool) throws {
        let url = try #require(URL(string: text))
        #expect(WireRequest.isAbsoluteHTTP(url) == usable, "\(text)")
    }

    @Test("a URL relative to a base is read as resolved")
    func relativeToBase() throws {
        let base = try #require(URL(string: "https://api.example.com/v1/"))
        let url = try #require(URL(string: "users?page=2", relativeTo: base))
        #expect(WireRequest.isAbsoluteHTTP(url))
        #expect(foundationSays(url))
    }
}
