import AsyncHTTPClient
import Foundation
import NIOCore

/// What the library over `AsyncHTTPClientTransport` is measured against: the same call written by
/// hand on one `HTTPClient` configured like the transport's own (same pool, no redirects, the
/// same bounded decompression), reading the body up to a limit and decoding it with `JSONDecoder`.
struct RawAsyncHTTPClient: Sendable {
    /// The client, shared by every request of the run, as an app would share one.
    let client: HTTPClient
    /// The base URL `users` is appended to.
    let baseURL: URL
    /// The headers sent with every request, the ones the library's actions add.
    let headers: [(name: String, value: String)]
    /// One decoder for every response, as the library keeps one in its configuration.
    let decoder = JSONDecoder()

    /// A client on the shared event loops with the pool and settings of the library's transport
    /// created with `maximumConnectionsPerHost` connections per host.
    static func makeClient(maximumConnectionsPerHost: Int) -> HTTPClient {
        HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10)),
                connectionPool: HTTPClient.Configuration.ConnectionPool(
                    idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maximumConnectionsPerHost),
                decompression: .enabled(limit: .ratio(250))))
    }

    /// Sends `GET users` and decodes the list.
    func listUsers() async throws -> [User] {
        var request = HTTPClientRequest(url: baseURL.appendingPathComponent(UsersFixture.path).absoluteString)
        request.method = .GET
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        // The library sends one when the request has none; so does this, to send the same bytes.
        request.headers.add(name: "User-Agent", value: "ECNetworking")
        let response = try await client.execute(request, deadline: .now() + .seconds(60))
        guard response.status == .ok else { throw BenchmarkError.unexpectedStatus(Int(response.status.code)) }
        let body = try await response.body.collect(upTo: 1 << 20)
        return try decoder.decode([User].self, from: Data(body.readableBytesView))
    }
}
