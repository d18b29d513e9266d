import Foundation
import Testing

@testable import ECNetworking

@Suite("Origin: scheme, host and port, with default ports made explicit")
struct TransportOriginTests {
    @Test(
        "same origin",
        arguments: [
            ("http://example.com/a", "http://example.com:80/b"),
            ("https://EXAMPLE.com/a", "https://example.com:443/b?q=1"),
            ("HTTP://127.0.0.1:8080/a", "http://127.0.0.1:8080/b"),
        ])
    func sameOrigin(first: String, second: String) {
        #expect(Origin.same(URL(string: first), URL(string: second)))
    }

    @Test(
        "different origin",
        arguments: [
            ("http://127.0.0.1:8080/a", "http://127.0.0.1:8081/a"),
            ("http://example.com/a", "https://example.com/a"),
            ("https://example.com/a", "https://api.example.com/a"),
            ("http://example.com:443/a", "https://example.com/a"),
        ])
    func differentOrigin(first: String, second: String) {
        #expect(!Origin.same(URL(string: first), URL(string: second)))
    }

    @Test("a URL without a host is never the same origin, not even as itself")
    func noHost() {
        let url = URL(string: "mailto:someone@example.com")
        #expect(Origin(url) == nil)
        #expect(!Origin.same(url, url))
        #expect(!Origin.same(nil, URL(string: "http://example.com")))
    }
}
