import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("URLSessionTransport on a loopback server", .timeLimit(.minutes(1)))
struct URLSessionTransportTests {
    private let clock = ContinuousClock()
    private let megabyte = TransportTestRoutes.megabyte

    @Test("a 200 delivers its body and response; a 204 delivers an empty body")
    func normalResponses() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()

        let hello = try await transport.get("hello", on: server)
        #expect(hello.error == nil)
        #expect(hello.response?.statusCode == 200)
        #expect(hello.data == Data("hello".utf8))

        let empty = try await transport.get("empty", on: server)
        #expect(empty.error == nil)
        #expect(empty.response?.statusCode == 204)
        #expect(empty.data?.isEmpty == true)
        #expect(transport.activeTaskCount == 0)
    }

    @Test("a 5 MB body against a 1 MB limit fails promptly with responseTooLarge, exactly once")
    func bodyOverLimit() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport(maximumResponseSize: megabyte)
        let start = clock.now

        let result = try await transport.get("big", on: server)

        guard case .responseTooLarge(let limit)? = result.networkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: result.error))")
            return
        }
        #expect(limit == 1_048_576)
        #expect(clock.now - start < promptBound)
        #expect(transport.activeTaskCount == 0)
    }

    @Test("the limit is enforced as bytes arrive, not when the transfer ends")
    func limitEnforcedOnArrival() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport(maximumResponseSize: megabyte)
        let start = clock.now

        // The server sends 1.5 MB of a declared 5 MB and then stalls until the client leaves.
        let result = try await transport.get("drip", on: server)

        guard case .responseTooLarge(let limit)? = result.networkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: result.error))")
            return
        }
        #expect(limit == megabyte)
        #expect(clock.now - start < promptBound)
        // Cancelling the session task dropped the connection, so the server's thread is free.
        try await waitUntil { server.openConnectionCount == 0 }
    }

    @Test("a compressed body is held to the limit by its decoded size, not its Content-Length")
    func compressedBodyOverLimit() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let compressed = TransportTestRoutes.compressed
        #expect(compressed.compressed.count * 100 < compressed.decodedCount)

        let unlimited = try await URLSessionTransport().get("compressed", on: server)
        #expect(unlimited.data == Data(repeating: 0x63, count: compressed.decodedCount))

        let limited = try await URLSessionTransport(maximumResponseSize: megabyte).get("compressed", on: server)
        guard case .responseTooLarge(let limit)? = limited.networkError else {
            Issue.record("expected responseTooLarge, got \(String(describing: limited.error))")
            return
        }
        #expect(limit == megabyte)
    }

    @Test("a body exactly at the limit succeeds")
    func bodyAtLimit() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport(maximumResponseSize: megabyte)

        let result = try await transport.get("exact", on: server)

        #expect(result.error == nil)
        #expect(result.data == TransportTestRoutes.oneMegabyte)
    }

    @Test("a cross-origin redirect drops the credential headers and keeps the others")
    func crossOriginRedirect() async throws {
        let target = try TransportTestRoutes.server()
        defer { target.stop() }
        let origin = try TransportTestRoutes.server(redirectingTo: target.baseURL)
        defer { origin.stop() }
        // Its own cookie storage: a cookie another test stored for 127.0.0.1 would be sent to
        // every port, rightly, and spoil the check that the manual Cookie header is gone.
        let transport = URLSessionTransport(configuration: .ephemeral)

        let result = try await transport.get(
            "cross", on: origin,
            headers: [
                "Authorization": "Bearer secret", "Cookie": "session=secret",
                "Proxy-Authorization": "Basic secret", "X-Trace": "trace-1",
            ])

        #expect(result.error == nil)
        #expect(result.response?.statusCode == 200)
        #expect(result.data == Data("hello".utf8))
        let sent = try #require(origin.requests.first)
        #expect(sent.header("Authorization") == "Bearer secret")
        let forwarded = try #require(target.requests.first)
        expectCredentialsRemoved(from: forwarded)
    }

    @Test("a same-origin redirect keeps Authorization")
    func sameOriginRedirect() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()

        let result = try await transport.get("same", on: server, headers: ["Authorization": "Bearer secret"])

        #expect(result.response?.statusCode == 200)
        #expect(server.requests.map(\.path) == ["/same", "/hello"])
        #expect(server.requests.last?.header("Authorization") == "Bearer secret")
    }

    @Test("a cookie set by a redirect is sent on the request it leads to, as without a delegate")
    func cookieFromRedirect() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral)

        let result = try await transport.get("login", on: server)

        #expect(result.response?.statusCode == 200)
        #expect(server.requests.map(\.path) == ["/login", "/hello"])
        #expect(server.requests.last?.header("Cookie") == "token=abc")
    }

    @Test("RedirectPolicy.never delivers the 3xx response itself, body included")
    func neverFollow() async throws {
        let target = try TransportTestRoutes.server()
        defer { target.stop() }
        let origin = try TransportTestRoutes.server(redirectingTo: target.baseURL)
        defer { origin.stop() }
        let transport = URLSessionTransport(redirectPolicy: .never)

        let result = try await transport.get("cross", on: origin)

        #expect(result.error == nil)
        #expect(result.response?.statusCode == 302)
        #expect(result.response?.value(forHTTPHeaderField: "Location") == "\(target.baseURL)/hello")
        #expect(result.data == Data("moved".utf8))
        #expect(target.requests.isEmpty)
    }

    @Test("a redirect loop fails with tooManyRedirects after maximumRedirects redirects")
    func redirectLoop() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()

        let result = try await transport.get("loop", on: server)

        guard case .tooManyRedirects(let limit)? = result.networkError else {
            Issue.record("expected tooManyRedirects, got \(String(describing: result.error))")
            return
        }
        #expect(limit == 10)
        // The original request and the 10 redirects followed; the 11th is refused.
        #expect(server.requests.count == 11)
        #expect(transport.activeTaskCount == 0)
    }

    @Test("a policy above the session's own cap still reports tooManyRedirects")
    func sessionRedirectCap() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport(redirectPolicy: RedirectPolicy(maximumRedirects: 100))

        let result = try await transport.get("loop", on: server)

        guard case .tooManyRedirects? = result.networkError else {
            Issue.record("expected tooManyRedirects, got \(String(describing: result.error))")
            return
        }
        #expect(transport.activeTaskCount == 0)
    }

    @Test("cancelling in flight completes once with URLError.cancelled and drops the connection")
    func cancelInFlight() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let probe = CompletionProbe()
        let task = transport.dataTask(
            for: URLRequest(url: server.baseURL.appendingPathComponent("stall")), completion: probe.completion)
        task.resume()
        try await waitUntil { server.requests.count == 1 }
        let start = clock.now

        task.cancel()
        task.cancel()

        let result = await probe.firstResult()
        #expect(result.isURLCancellation)
        #expect(clock.now - start < promptBound, "the stalled transfer never ends by itself")
        try await waitUntil { server.openConnectionCount == 0 }
        #expect(probe.callCount == 1)
        #expect(transport.activeTaskCount == 0)
    }

    @Test("a task cancelled before resume completes once and never reaches the server")
    func cancelBeforeResume() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let probe = CompletionProbe()
        let task = transport.dataTask(
            for: URLRequest(url: server.baseURL.appendingPathComponent("hello")), completion: probe.completion)

        task.cancel()
        task.resume()

        #expect(await probe.firstResult().isURLCancellation)
        try await Task.sleep(for: .milliseconds(100))
        #expect(probe.callCount == 1)
        #expect(server.requests.isEmpty)
        #expect(transport.activeTaskCount == 0)
    }

    @Test("a 401 with a Basic challenge is delivered as it is, once, instead of never ending")
    func basicChallenge() async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(status: 401, headers: ["WWW-Authenticate": "Basic realm=\"api\""], body: Data("sign in".utf8))
        }
        defer { server.stop() }
        let transport = URLSessionTransport()
        let probe = CompletionProbe()

        transport.dataTask(for: URLRequest(url: server.baseURL), completion: probe.completion).resume()

        try await waitUntil { probe.callCount == 1 }
        let result = await probe.firstResult()
        #expect(result.error == nil)
        #expect(result.response?.statusCode == 401)
        #expect(result.data == Data("sign in".utf8))
        try await Task.sleep(for: .milliseconds(50))
        #expect(probe.callCount == 1)
        #expect(server.requests.count == 1)
        #expect(transport.activeTaskCount == 0)
    }

    @Test("after invalidate, tasks fail without reaching the session")
    func invalidate() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        #expect(try await transport.get("hello", on: server).error == nil)

        transport.invalidate()
        transport.invalidate()
        let result = try await transport.get("hello", on: server)

        guard case .invalidated? = result.networkError else {
            Issue.record("expected invalidated, got \(String(describing: result.error))")
            return
        }
        #expect(server.requests.count == 1)
    }
}
