import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Redirects never leave http and https", .timeLimit(.minutes(1)))
struct RedirectSchemeTests {
    /// A server whose `/away` answers 302 to `location`; every other path answers 200 "hello".
    private func server(redirectingTo location: String) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            request.path == "/away"
                ? .response(status: 302, headers: ["Location": location], body: Data("moved".utf8))
                : .response(status: 200, body: Data("hello".utf8))
        }
    }

    @Test(
        "a redirect to another scheme fails with redirectRefused and nothing is followed",
        arguments: [
            ("file:///etc/passwd", "file"), ("data:text/plain,hello", "data"), ("ftp://127.0.0.1/x", "ftp"),
            ("FILE:///etc/passwd", "file"), ("javascript:alert(1)", "javascript"),
        ])
    func refused(location: String, scheme: String) async throws {
        let server = try server(redirectingTo: location)
        defer { server.stop() }
        let transport = URLSessionTransport()

        let result = try await transport.get("away", on: server)

        guard case .redirectRefused(let refused)? = result.networkError else {
            Issue.record("expected redirectRefused, got \(String(describing: result.error))")
            return
        }
        #expect(refused == scheme)
        // FoundationNetworking turns `file:///etc/passwd` into `http://127.0.0.1:port/etc/passwd`;
        // no such request may reach the server.
        #expect(server.requests.map(\.path) == ["/away"])
        #expect(transport.activeTaskCount == 0)
    }

    @Test("through the network, the send fails with redirectRefused")
    func refusedThroughNetwork() async throws {
        let server = try server(redirectingTo: "file:///etc/passwd")
        defer { server.stop() }
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: server.baseURL), session: URLSessionTransport())

        await #expect {
            _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("away")))
        } throws: { error in
            guard case .redirectRefused(let scheme) = error as? NetworkError else { return false }
            return scheme == "file"
        }
        #expect(server.requests.count == 1)
    }

    @Test("RedirectPolicy.never still delivers the 3xx as it is, whatever its target")
    func neverFollowDelivers() async throws {
        let server = try server(redirectingTo: "file:///etc/passwd")
        defer { server.stop() }

        let result = try await URLSessionTransport(redirectPolicy: .never).get("away", on: server)

        #expect(result.error == nil)
        #expect(result.response?.statusCode == 302)
        #expect(result.data == Data("moved".utf8))
        #expect(server.requests.count == 1)
    }

    @Test("relative and same-scheme redirects are still followed")
    func httpFollowed() async throws {
        for location in ["/hello", "hello", "//127.0.0.1:PORT/hello", "HTTP://127.0.0.1:PORT/hello"] {
            let target = try LoopbackHTTPServer { _ in .response(status: 200, body: Data("hello".utf8)) }
            defer { target.stop() }
            let server = try server(redirectingTo: location.replacingOccurrences(of: "PORT", with: "\(target.port)"))
            defer { server.stop() }

            let result = try await URLSessionTransport().get("away", on: server)

            #expect(result.error == nil, "\(location)")
            #expect(result.response?.statusCode == 200, "\(location)")
            #expect(result.data == Data("hello".utf8), "\(location)")
        }
    }

    @Test("a redirect to https is followed, not refused")
    func httpsFollowed() async throws {
        // Plain HTTP listens there, so the TLS handshake fails: the redirect was attempted.
        let target = try LoopbackHTTPServer { _ in .response(status: 200) }
        defer { target.stop() }
        let server = try server(redirectingTo: "https://127.0.0.1:\(target.port)/hello")
        defer { server.stop() }

        let result = try await URLSessionTransport().get("away", on: server)

        #expect(result.networkError == nil)
        #expect(result.error is URLError, "\(String(describing: result.error))")
        #expect(target.acceptedConnectionCount == 1)
    }

    @Test("the redirect limit and its error are unchanged")
    func limitStillApplies() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }

        let result = try await URLSessionTransport(redirectPolicy: RedirectPolicy(maximumRedirects: 2))
            .get("loop", on: server)

        guard case .tooManyRedirects(let limit)? = result.networkError else {
            Issue.record("expected tooManyRedirects, got \(String(describing: result.error))")
            return
        }
        #expect(limit == 2)
        #expect(server.requests.count == 3)
    }
}
