#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOPosix
    import TestSupport
    import Testing

    @testable import ECNetworking

    @Suite("AsyncHTTPClientTransport client ownership", .timeLimit(.minutes(2)))
    struct AsyncHTTPClientTransportLifecycleTests {
        @Test("shutdown closes the owned client's pooled connections; later sends fail with invalidated")
        func ownedShutdown() async throws {
            let server = try LoopbackHTTPServer(keepsConnectionsOpen: true) { _ in .response(status: 200) }
            defer { server.stop() }
            let transport = AsyncHTTPClientTransport()
            _ = try await transport.send("hello", on: server)
            #expect(server.openConnectionCount == 1)

            try await transport.shutdown()
            try await waitUntil { server.openConnectionCount == 0 }
            let error = await networkError { _ = try await transport.send("hello", on: server) }
            guard case .invalidated? = error else {
                Issue.record("expected invalidated, got \(String(describing: error))")
                return
            }
            try await transport.shutdown()
        }

        // async-http-client refuses a request on a client that is shut down without telling the
        // delegate the network's sends go through: before the transport noticed, such a send
        // waited for its timeout, or for ever without one.
        @Test(
            "a network's send after the transport's shutdown fails at once with invalidated",
            arguments: [false, true])
        func networkSendAfterShutdown(clientPassedIn: Bool) async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 200) }
            defer { server.stop() }
            let client = HTTPClient(
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
            let transport = clientPassedIn ? AsyncHTTPClientTransport(client: client) : AsyncHTTPClientTransport()
            var configuration = NetworkConfiguration(baseURL: server.baseURL)
            configuration.timeout = nil
            let network = HTTPNetwork(configuration: configuration, transport: transport)
            let request = NetworkRequest(url: server.baseURL.appendingPathComponent("hello"))
            _ = try await network.send(request)
            try await clientPassedIn ? client.shutdown() : transport.shutdown()

            let started = ContinuousClock.now
            let error = await networkError { _ = try await network.send(request) }
            guard case .invalidated? = error else {
                Issue.record("expected invalidated, got \(String(describing: error))")
                return
            }
            #expect(ContinuousClock.now - started < .seconds(5))
            if !clientPassedIn { try await client.shutdown() }
        }

        @Test("releasing an owned transport without shutdown shuts its client down, without a crash")
        func releaseWithoutShutdown() async throws {
            let server = try LoopbackHTTPServer(keepsConnectionsOpen: true) { _ in .response(status: 200) }
            defer { server.stop() }
            do {
                let transport = AsyncHTTPClientTransport()
                _ = try await transport.send("hello", on: server)
            }
            // async-http-client stops a debug process when a client is released still running;
            // reaching this point and seeing the pooled connection closed shows it was shut down.
            try await waitUntil { server.openConnectionCount == 0 }
        }

        @Test("a body still being read keeps a released transport's client running until it ends")
        func bodyOutlivesTransport() async throws {
            let gate = DispatchSemaphore(value: 0)
            let server = try LoopbackHTTPServer { _ in
                .chunked(first: Data("first".utf8), gate: gate, rest: [Data("rest".utf8)])
            }
            defer {
                gate.signal()
                server.stop()
            }
            weak var owner: OwnedHTTPClient?
            var body: ByteStream?
            do {
                let transport = AsyncHTTPClientTransport()
                owner = transport.owner
                body = try await transport.send("stream", on: server).body
            }
            // The transport is gone; only the body holds the client, which must not be shut down
            // under it.
            #expect(owner != nil)
            gate.signal()
            #expect(try await body?.collect(upTo: nil) == Data("firstrest".utf8))
            body = nil
            #expect(owner == nil)
        }

        @Test("a client passed in is never shut down by the transport")
        func clientPassedIn() async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Data("ok".utf8)) }
            defer { server.stop() }
            let client = HTTPClient(
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
            do {
                let transport = AsyncHTTPClientTransport(client: client)
                _ = try await transport.send("hello", on: server)
                try await transport.shutdown()
            }

            let response = try await AsyncHTTPClientTransport(client: client).send("hello", on: server)
            #expect(try await response.body.collect(upTo: nil) == Data("ok".utf8))
            try await client.shutdown()
        }

        @Test("a client passed in that follows redirects itself is refused with invalidResponse")
        func clientFollowingRedirects() async throws {
            let server = try LoopbackHTTPServer { request in
                request.path == "/old" ? .response(status: 302, headers: ["Location": "/new"]) : .response(status: 200)
            }
            defer { server.stop() }
            let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
            let error = await networkError {
                _ = try await AsyncHTTPClientTransport(client: client).send("old", on: server)
            }
            guard case .invalidResponse? = error else {
                Issue.record("expected invalidResponse, got \(String(describing: error))")
                try await client.shutdown()
                return
            }
            try await client.shutdown()
        }
    }
#endif
