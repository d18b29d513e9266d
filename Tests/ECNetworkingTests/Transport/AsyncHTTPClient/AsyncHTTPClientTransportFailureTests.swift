#if AsyncHTTPClient
    import Foundation
    import TestSupport
    import Testing

    @testable import ECNetworking

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    @Suite("AsyncHTTPClientTransport failures and cancellation", .timeLimit(.minutes(2)))
    struct AsyncHTTPClientTransportFailureTests {
        private let clock = ContinuousClock()
        private let megabyte = TransportTestRoutes.megabyte

        /// Runs `body` with a server that holds every answer until `body` returns, as a stuck
        /// server does.
        private func withHeldServer(_ body: (LoopbackHTTPServer) async throws -> Void) async throws {
            let release = DispatchSemaphore(value: 0)
            let server = try LoopbackHTTPServer { _ in
                _ = release.wait(timeout: .now() + 30)
                return .response(status: 200)
            }
            defer {
                release.signal()
                server.stop()
            }
            try await body(server)
        }

        @Test("a port nobody listens on fails at once with cannotConnectToHost")
        func deadPort() async throws {
            let closed = try ClosedPort()
            let start = clock.now

            // A client that retried the refused connection would keep trying for the whole minute.
            try await withOwnedTransport(.init(connectTimeout: .seconds(60))) { transport in
                let error = await networkError {
                    _ = try await transport.send(
                        TransportRequest(method: .get, url: closed.baseURL.appendingPathComponent("hello")))
                }
                #expect(error?.transportCode == .cannotConnectToHost)
            }
            #expect(clock.now - start < promptBound)
        }

        @Test("a TLS handshake the server refuses fails with secureConnectionFailed")
        func failedHandshake() async throws {
            // This server speaks plain HTTP and closes a connection that opens with a TLS record.
            let server = try LoopbackHTTPServer { _ in .response(status: 200) }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let url = try #require(URL(string: "https://127.0.0.1:\(server.port)/hello"))
                let error = await networkError {
                    _ = try await transport.send(TransportRequest(method: .get, url: url))
                }
                #expect(error?.transportCode == .secureConnectionFailed)
            }
        }

        @Test("a body shorter than its Content-Length fails with networkConnectionLost, never a short success")
        func truncatedBody() async throws {
            let server = try LoopbackHTTPServer { _ in .truncated(declaredLength: 100, body: Data("0123456789".utf8)) }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let response = try await transport.send("short", on: server)
                let error = await networkError { _ = try await response.body.collect(upTo: nil) }
                #expect(error?.transportCode == .networkConnectionLost)
            }
        }

        @Test("a head that never arrives fails with timedOut once the timeout and its one-second backstop pass")
        func headTimeout() async throws {
            try await withHeldServer { server in
                try await withOwnedTransport { transport in
                    let error = await networkError {
                        _ = try await transport.send("slow", on: server, timeout: .milliseconds(300))
                    }
                    #expect(error?.transportCode == .timedOut)
                }
            }
        }

        @Test("cancelling the sending task before the head ends the exchange with cancelled")
        func cancelBeforeHead() async throws {
            try await withHeldServer { server in
                try await withOwnedTransport { transport in
                    let send = Task { try await transport.send("slow", on: server) }
                    try await waitUntil { server.requests.count == 1 }
                    let start = clock.now
                    send.cancel()

                    let error = await networkError { _ = try await send.value }
                    #expect(error?.isCancellation == true)
                    #expect(clock.now - start < promptBound)
                }
            }
        }

        @Test("cancelling the task reading the body ends it with cancelled and closes the connection")
        func cancelDuringBody() async throws {
            let server = try LoopbackHTTPServer { _ in
                .stall(declaredLength: 10 * megabyte, prefix: Data(repeating: 0x61, count: 1_000))
            }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let response = try await transport.send("stall", on: server)
                let firstChunk = AsyncStream<Void>.makeStream()
                let read = Task {
                    var chunks = response.body.makeAsyncIterator()
                    _ = try await chunks.next()
                    firstChunk.continuation.yield()
                    while try await chunks.next() != nil {}
                }
                for await _ in firstChunk.stream { break }
                let start = clock.now
                read.cancel()

                let error = await networkError { try await read.value }
                #expect(error?.isCancellation == true)
                #expect(clock.now - start < promptBound)
                try await waitUntil { server.openConnectionCount == 0 }
            }
        }

        @Test("a body past maximumResponseSize fails with responseTooLarge and closes the connection")
        func bodyOverLimit() async throws {
            let server = try LoopbackHTTPServer { _ in
                .stall(declaredLength: 5 * megabyte, prefix: Data(repeating: 0x61, count: 3 * megabyte / 2))
            }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let response = try await transport.send("drip", on: server, limit: megabyte)
                let error = await networkError { _ = try await response.body.collect(upTo: nil) }
                guard case .responseTooLarge(let limit)? = error else {
                    Issue.record("expected responseTooLarge, got \(String(describing: error))")
                    return
                }
                #expect(limit == megabyte)
                try await waitUntil { server.openConnectionCount == 0 }
            }
        }

        // What the bomb costs in memory is measured by ResponseSizeMemoryTests, in a process of its
        // own: other tests share this one, and their uploads moved its peak.
        @Test("a gzip bomb against a 1 MiB limit fails with responseTooLarge")
        func gzipBombAgainstLimit() async throws {
            // About 1 GB once decoded, 6.5 MB on the wire.
            let bomb = GzipBomb.body(periods: 500_000)
            let server = try LoopbackHTTPServer { _ in
                .response(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb)
            }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let response = try await transport.send("bomb", on: server, limit: megabyte)
                let error = await networkError { _ = try await response.body.collect(upTo: nil) }
                guard case .responseTooLarge(let limit)? = error else {
                    Issue.record("expected responseTooLarge, got \(String(describing: error))")
                    return
                }
                #expect(limit == megabyte)
            }
        }

        @Test("a body decoding past the configured ratio fails with cannotDecodeContentData, even with no size limit")
        func decompressionRatio() async throws {
            // About 159 to 1, like every body GzipFixture builds; 1 GB once decoded.
            let periods = 500_000
            let bomb = GzipBomb.body(periods: periods)
            let server = try LoopbackHTTPServer { _ in
                .response(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb)
            }
            defer { server.stop() }
            try await withOwnedTransport(.init(maximumDecompressionRatio: 100)) { transport in
                let response = try await transport.send("bomb", on: server)
                var received = 0
                let error = await networkError {
                    for try await chunk in response.body { received += chunk.count }
                }
                #expect(error?.transportCode == .cannotDecodeContentData)
                #expect(received < GzipBomb.decodedCount(periods: periods) / 10)
            }
        }

        @Test("a URL async-http-client cannot send is an invalid request that names no part of it")
        func unsupportedScheme() async throws {
            try await withOwnedTransport { transport in
                let url = try #require(URL(string: "ftp://user:secret@example.invalid/file"))
                let error = await networkError {
                    _ = try await transport.send(TransportRequest(method: .get, url: url))
                }
                guard case .invalidRequest(let reason)? = error else {
                    Issue.record("expected invalidRequest, got \(String(describing: error))")
                    return
                }
                #expect(!reason.contains("secret"))
                #expect(!reason.contains("example"))
            }
        }
    }
#endif
