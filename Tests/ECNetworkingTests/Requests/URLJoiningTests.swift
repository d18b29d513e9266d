import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request that appends `path` to the configuration's base URL, as ECNetworking requests do.
private struct PathRequest: Request {
    typealias Response = Void
    let path: String
    var queryItems: [URLQueryItem] = []

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent(path), queryItems: queryItems)
    }
}

/// Sends `request` through a network whose base URL is `baseURL` and returns the URL on the wire.
private func wireURL(baseURL: URL, _ request: some Request) async throws -> URL {
    let session = MockSession()
    session.stub(.any, with: MockResponse(statusCode: 200))
    let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL), session: session)
    _ = try await network.send(request)
    let recorded = try #require(session.recordedRequests.first)
    return try #require(recorded.url)
}

@Suite("URL joining")
struct URLJoiningTests {
    private static let withoutSlash = URL(string: "https://api.example.com/v1")!
    private static let withSlash = URL(string: "https://api.example.com/v1/")!

    @Test(
        "A path component joins the base URL with exactly one slash",
        arguments: [
            (withoutSlash, "users"), (withoutSlash, "/users"), (withSlash, "users"), (withSlash, "/users"),
        ]
    )
    func joinsWithOneSlash(baseURL: URL, path: String) async throws {
        let sent = try await wireURL(baseURL: baseURL, PathRequest(path: path))
        #expect(sent.absoluteString == "https://api.example.com/v1/users")
        #expect(sent.path == "/v1/users")
    }

    @Test("A nested path joins segment by segment")
    func nestedPath() async throws {
        let sent = try await wireURL(baseURL: testBaseURL, PathRequest(path: "users/42/posts"))
        #expect(sent.absoluteString == "https://api.example.com/v1/users/42/posts")
    }

    @Test("A base URL with only a host joins without a double slash")
    func hostOnlyBase() async throws {
        let sent = try await wireURL(baseURL: URL(string: "https://api.example.com")!, PathRequest(path: "users"))
        #expect(sent.absoluteString == "https://api.example.com/users")
    }

    @Test("A base URL with a port keeps it")
    func baseWithPort() async throws {
        let sent = try await wireURL(baseURL: URL(string: "http://localhost:8080/api/")!, PathRequest(path: "users"))
        #expect(sent.absoluteString == "http://localhost:8080/api/users")
        #expect(sent.port == 8080)
    }

    @Test("Spaces and non-ASCII in a path are percent-encoded and decode back")
    func pathWithSpacesAndUnicode() async throws {
        let sent = try await wireURL(baseURL: testBaseURL, PathRequest(path: "my files/é 日本"))
        #expect(sent.absoluteString == "https://api.example.com/v1/my%20files/%C3%A9%20%E6%97%A5%E6%9C%AC")
        #expect(sent.path == "/v1/my files/é 日本")
    }

    @Test("A path component with a ? or # stays in the path instead of starting a query or fragment")
    func pathWithQueryDelimiters() async throws {
        let sent = try await wireURL(baseURL: testBaseURL, PathRequest(path: "what?#now"))
        #expect(sent.query == nil)
        #expect(sent.fragment == nil)
        #expect(sent.lastPathComponent == "what?#now")
    }

    @Test("A base URL with a query keeps it after the joined path")
    func baseWithQuery() async throws {
        let base = URL(string: "https://api.example.com/v1?key=abc")!
        let sent = try await wireURL(baseURL: base, PathRequest(path: "users"))
        #expect(sent.absoluteString == "https://api.example.com/v1/users?key=abc")
    }

    @Test("Query items are added after a query the base URL already has")
    func baseWithQueryAndItems() async throws {
        let base = URL(string: "https://api.example.com/v1?key=abc")!
        let sent = try await wireURL(
            baseURL: base, PathRequest(path: "users", queryItems: [URLQueryItem(name: "page", value: "2")]))
        #expect(sent.absoluteString == "https://api.example.com/v1/users?key=abc&page=2")
    }

    @Test("A URL relative to the base resolves against it, query items included")
    func relativeURL() async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: Self.withSlash), session: session)
        let relative = try #require(URL(string: "users", relativeTo: Self.withSlash))

        _ = try await network.send(NetworkRequest(url: relative))
        _ = try await network.send(NetworkRequest(url: relative, queryItems: [URLQueryItem(name: "a", value: "1")]))

        #expect(
            session.recordedRequests.map { $0.url?.absoluteString } == [
                "https://api.example.com/v1/users", "https://api.example.com/v1/users?a=1",
            ])
    }
}
