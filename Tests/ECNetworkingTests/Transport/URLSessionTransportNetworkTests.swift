import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("URLSessionNetwork over URLSessionTransport on a loopback server", .timeLimit(.minutes(1)))
struct URLSessionTransportNetworkTests {
    private let clock = ContinuousClock()
    private let megabyte = TransportTestRoutes.megabyte

    private func makeNetwork(
        _ server: LoopbackHTTPServer,
        transport: URLSessionTransport,
        configure: (inout NetworkConfiguration) -> Void = { _ in }
    ) -> URLSessionNetwork {
        var configuration = NetworkConfiguration(baseURL: server.baseURL)
        configure(&configuration)
        return URLSessionNetwork(configuration: configuration, session: transport)
    }

    private func request(_ path: String, on server: LoopbackHTTPServer, headers: HTTPHeaders = [:])
        -> NetworkRequest
    {
        NetworkRequest(headers: headers, url: server.baseURL.appendingPathComponent(path))
    }

    @Test("a 200 with a body and a 204 without one")
    func normalResponses() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let network = makeNetwork(server, transport: transport)

        let hello = try await network.send(request("hello", on: server))
        #expect(hello.statusCode == 200)
        #expect(hello.body == Data("hello".utf8))
        #expect(hello.headers["content-type"] == "text/plain")

        let empty = try await network.send(request("empty", on: server))
        #expect(empty.statusCode == 204)
        #expect(empty.body.isEmpty)
        #expect(transport.activeTaskCount == 0)
    }

    @Test("the transport's size limit fails the send with responseTooLarge; a body at the limit passes")
    func sizeLimit() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        // The network's own configuration sets no limit: the transport alone enforces it.
        let transport = URLSessionTransport(maximumResponseSize: megabyte)
        let network = makeNetwork(server, transport: transport)
        let start = clock.now

        await #expect {
            _ = try await network.send(request("big", on: server))
        } throws: { error in
            guard case .responseTooLarge(let limit) = error as? NetworkError else { return false }
            return limit == 1_048_576
        }
        #expect(clock.now - start < promptBound)

        let exact = try await network.send(request("exact", on: server))
        #expect(exact.body.count == megabyte)
        #expect(transport.activeTaskCount == 0)
    }

    @Test("a redirect to another port drops Authorization, Cookie and Proxy-Authorization, keeps X-Trace")
    func crossOriginRedirect() async throws {
        let target = try TransportTestRoutes.server()
        defer { target.stop() }
        let origin = try TransportTestRoutes.server(redirectingTo: target.baseURL)
        defer { origin.stop() }
        // Its own cookie storage, so no cookie stored by another test reaches the target.
        let network = makeNetwork(origin, transport: URLSessionTransport(configuration: .ephemeral))
        let headers: HTTPHeaders = [
            "Authorization": "Bearer secret", "Cookie": "session=secret",
            "Proxy-Authorization": "Basic secret", "X-Trace": "trace-1",
        ]

        let response = try await network.send(request("cross", on: origin, headers: headers))

        #expect(response.statusCode == 200)
        #expect(response.url?.port == target.port)
        let forwarded = try #require(target.requests.first)
        expectCredentialsRemoved(from: forwarded)
    }

    @Test("a same-origin redirect keeps Authorization")
    func sameOriginRedirect() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let network = makeNetwork(server, transport: URLSessionTransport())

        let response = try await network.send(request("same", on: server, headers: ["Authorization": "Bearer secret"]))

        #expect(response.statusCode == 200)
        #expect(server.requests.last?.path == "/hello")
        #expect(server.requests.last?.header("Authorization") == "Bearer secret")
    }

    @Test("RedirectPolicy.never returns the 302 when the request accepts it")
    func neverFollowAccepted() async throws {
        let target = try TransportTestRoutes.server()
        defer { target.stop() }
        let origin = try TransportTestRoutes.server(redirectingTo: target.baseURL)
        defer { origin.stop() }
        let network = makeNetwork(origin, transport: URLSessionTransport(redirectPolicy: .never))
        var redirect = request("cross", on: origin)
        redirect.acceptableStatusCodes = [200, 302]

        let response = try await network.send(redirect)

        #expect(response.statusCode == 302)
        #expect(response.headers["location"] == "\(target.baseURL)/hello")
        #expect(target.requests.isEmpty)
    }

    @Test("RedirectPolicy.never reports an unaccepted 302 with its Location")
    func neverFollowUnaccepted() async throws {
        let target = try TransportTestRoutes.server()
        defer { target.stop() }
        let origin = try TransportTestRoutes.server(redirectingTo: target.baseURL)
        defer { origin.stop() }
        let network = makeNetwork(origin, transport: URLSessionTransport(redirectPolicy: .never))

        await #expect {
            _ = try await network.send(request("cross", on: origin))
        } throws: { error in
            guard case .unacceptableStatusCode(let response) = error as? NetworkError else { return false }
            return response.statusCode == 302 && response.headers["Location"] == "\(target.baseURL)/hello"
        }
        #expect(target.requests.isEmpty)
    }

    @Test("a redirect loop fails with tooManyRedirects after maximumRedirects")
    func redirectLoop() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport(redirectPolicy: RedirectPolicy(maximumRedirects: 3))
        let network = makeNetwork(server, transport: transport)

        await #expect {
            _ = try await network.send(request("loop", on: server))
        } throws: { error in
            guard case .tooManyRedirects(let limit) = error as? NetworkError else { return false }
            return limit == 3
        }
        #expect(server.requests.count == 4)
        #expect(transport.activeTaskCount == 0)
    }

    @Test("cancelling the calling task mid-transfer ends the send promptly with NetworkError.cancelled")
    func cancelMidTransfer() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        let network = makeNetwork(server, transport: transport)
        let send = Task { try await network.send(request("stall", on: server)) }
        try await waitUntil { server.requests.count == 1 }
        // Lets the status line, headers and the first bytes of the body arrive.
        try await Task.sleep(for: .milliseconds(100))
        let start = clock.now

        send.cancel()

        await #expect {
            _ = try await send.value
        } throws: { error in
            (error as? NetworkError)?.isCancellation == true
        }
        #expect(clock.now - start < promptBound, "the stalled transfer never ends by itself")
        try await waitUntil { server.openConnectionCount == 0 }
        #expect(transport.activeTaskCount == 0)
    }

    @Test("after 200 requests, 8 at a time, the transport tracks no task")
    func noLeakAfterManyRequests() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let transport = URLSessionTransport()
        // Every send must reach the transport, not join an identical GET already on the wire.
        let network = makeNetwork(server, transport: transport) { $0.coalescesIdenticalRequests = false }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in stride(from: worker, to: 200, by: 8) {
                        let path = index.isMultiple(of: 2) ? "hello" : "empty"
                        let response = try await network.send(request(path, on: server))
                        #expect(response.statusCode == (path == "hello" ? 200 : 204))
                    }
                }
            }
            try await group.waitForAll()
        }

        #expect(server.requests.count == 200)
        #expect(transport.activeTaskCount == 0)
    }
}
