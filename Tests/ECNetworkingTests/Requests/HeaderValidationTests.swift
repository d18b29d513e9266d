import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request for an arbitrary URL, to check URL validation through the `Request` path.
private struct FixedURLRequest: Request {
    typealias Response = Void
    let url: URL

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: url)
    }
}

/// Sends `request` and returns the reason of the `invalidRequest` it must fail with.
private func invalidRequestReason(
    sending request: NetworkRequest,
    through network: URLSessionNetwork,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> String? {
    let error = try await #require(throws: NetworkError.self, sourceLocation: sourceLocation) {
        _ = try await network.send(request)
    }
    guard case .invalidRequest(let reason) = error else {
        Issue.record("Expected invalidRequest, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    return reason
}

@Suite("Header and URL validation")
struct HeaderValidationTests {
    private let url = testBaseURL.appendingPathComponent("users")

    // MARK: - Header values

    @Test(
        "A header value with CR, LF, CRLF or NUL is rejected and nothing is sent",
        arguments: ["a\rb", "a\nb", "x\r\nEvil: 1", "a\0b", "trailing\r\n", "\n"]
    )
    func invalidValues(value: String) async throws {
        let (network, session) = makeStubbedNetwork()
        let reason = try await invalidRequestReason(
            sending: NetworkRequest(headers: ["X-Test": value], url: url), through: network)
        #expect(reason?.contains("X-Test") == true)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("A header injected by a will-begin action is validated too")
    func actionAddedHeaderIsValidated() async throws {
        let (network, session) = makeStubbedNetwork()
        network.add(action: AddHeader(name: "X-Trace", value: "x\r\nEvil: 1"))
        _ = try await invalidRequestReason(sending: NetworkRequest(url: url), through: network)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("A default header from the configuration is validated too")
    func defaultHeaderIsValidated() async throws {
        let (network, session) = makeStubbedNetwork { $0.defaultHeaders = ["User-Agent": "ec\r\nEvil: 1"] }
        _ = try await invalidRequestReason(sending: NetworkRequest(url: url), through: network)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("A second value of a repeated header is validated too")
    func repeatedHeaderIsValidated() async throws {
        let (network, session) = makeStubbedNetwork()
        var headers: HTTPHeaders = ["Accept": "application/json"]
        headers.add(name: "Accept", value: "text/plain\r\nEvil: 1")
        _ = try await invalidRequestReason(sending: NetworkRequest(headers: headers, url: url), through: network)
        #expect(session.recordedRequests.isEmpty)
    }

    // MARK: - Header names

    @Test(
        "A header name that is not an HTTP token is rejected and nothing is sent",
        arguments: ["X Test", "X-Test:", "X:Test", "", "X-Tést", "X-Test\r\n", "(X)", "X\"Y", "X/Y"]
    )
    func invalidNames(name: String) async throws {
        let (network, session) = makeStubbedNetwork()
        let reason = try await invalidRequestReason(
            sending: NetworkRequest(headers: HTTPHeaders([.init(name: name, value: "1")]), url: url), through: network)
        #expect(reason?.contains("header name") == true)
        #expect(session.recordedRequests.isEmpty)
    }

    // MARK: - Valid headers

    @Test("Valid headers go through unchanged, including every token character and values with tabs")
    func validHeadersGoThrough() async throws {
        let (network, session) = makeStubbedNetwork()
        let headers: HTTPHeaders = [
            "X-Request-ID": "abc-123",
            "X!#$%&'*+-.^_`|~1": "token-name",
            "X-Spaced": "a value\twith tab and: colon",
            "X-Empty": "",
        ]
        _ = try await network.send(NetworkRequest(headers: headers, url: url))

        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.value(forHTTPHeaderField: "X-Request-ID") == "abc-123")
        #expect(recorded.value(forHTTPHeaderField: "X!#$%&'*+-.^_`|~1") == "token-name")
        #expect(recorded.value(forHTTPHeaderField: "X-Spaced") == "a value\twith tab and: colon")
    }

    @Test("A CRLF in a query value is percent-encoded, not rejected")
    func crlfInQueryIsEncoded() async throws {
        let (network, session) = makeStubbedNetwork()
        _ = try await network.send(
            NetworkRequest(url: url, queryItems: [URLQueryItem(name: "q", value: "x\r\nEvil: 1")]))
        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.url?.absoluteString == "https://api.example.com/v1/users?q=x%0D%0AEvil%3A%201")
    }

    // MARK: - URLs

    @Test(
        "A URL that is not absolute http(s) is rejected and nothing is sent",
        arguments: [
            "ftp://example.com/file.txt", "users", "/users", "file:///etc/passwd", "mailto:someone@example.com",
            "https:///no-host", "ws://example.com/socket",
        ]
    )
    func nonHTTPURLs(string: String) async throws {
        let (network, session) = makeStubbedNetwork()
        let url = try #require(URL(string: string))
        let reason = try await invalidRequestReason(sending: NetworkRequest(url: url), through: network)
        #expect(reason?.contains("http") == true)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("A non-http URL built by a Request is rejected with invalidRequest")
    func nonHTTPURLFromRequest() async throws {
        let (network, session) = makeStubbedNetwork()
        let error = try await #require(throws: NetworkError.self) {
            try await network.send(FixedURLRequest(url: URL(string: "ftp://example.com/x")!))
        }
        guard case .invalidRequest = error else {
            Issue.record("Expected invalidRequest, got \(error)")
            return
        }
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("A relative URL is rejected even with query items", arguments: ["users", "users?x=1"])
    func relativeURLWithQueryItems(string: String) async throws {
        let (network, session) = makeStubbedNetwork()
        let request = NetworkRequest(url: URL(string: string)!, queryItems: [URLQueryItem(name: "a", value: "1")])
        _ = try await invalidRequestReason(sending: request, through: network)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("The scheme is compared without regard to case", arguments: ["HTTPS://api.example.com/x", "Http://a.b/c"])
    func uppercaseSchemeIsAccepted(string: String) async throws {
        let (network, session) = makeStubbedNetwork()
        _ = try await network.send(NetworkRequest(url: URL(string: string)!))
        #expect(session.recordedRequests.count == 1)
    }
}
