#if AsyncHTTPClient
    import Foundation
    import TestSupport
    import Testing

    @testable import ECNetworking

    @Suite("AsyncHTTPClientTransport exchanges on a loopback server", .timeLimit(.minutes(2)))
    struct AsyncHTTPClientTransportExchangeTests {
        @Test("status, header fields in order with repeats, body and URL come back as the server sent them")
        func statusHeadersAndBody() async throws {
            let server = try LoopbackHTTPServer { _ in
                .fields(
                    status: 201,
                    [("Set-Cookie", "a=1"), ("X-Trace", "t"), ("Set-Cookie", "b=2")],
                    body: Data("hello".utf8))
            }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let response = try await transport.send("items", on: server)

                #expect(response.statusCode == 201)
                #expect(response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
                #expect(response.headers["X-Trace"] == "t")
                #expect(response.url == server.baseURL.appendingPathComponent("items"))
                #expect(try await response.body.collect(upTo: nil) == Data("hello".utf8))
            }
        }

        @Test("request header fields go out with repeats; User-Agent defaults to ECNetworking, a given one is kept")
        func requestHeaders() async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 200) }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                var headers = HTTPHeaders()
                headers.add(name: "X-Tag", value: "one")
                headers.add(name: "X-Tag", value: "two")
                _ = try await transport.send("first", on: server, headers: headers)
                _ = try await transport.send("second", on: server, headers: ["User-Agent": "Mine/1.0"])
            }

            let requests = server.requests
            try #require(requests.count == 2)
            #expect(requests[0].header("X-Tag") == "one, two")
            #expect(requests[0].header("User-Agent") == "ECNetworking")
            #expect(requests[0].method == "GET")
            #expect(requests[1].header("User-Agent") == "Mine/1.0")
        }

        @Test("a HEAD response has its headers and an empty body, whatever its Content-Length")
        func head() async throws {
            let server = try LoopbackHTTPServer { _ in .fields([("X-Size", "5")], declaredLength: 5) }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let response = try await transport.send("file", on: server, method: .head)

                #expect(response.statusCode == 200)
                #expect(response.headers["Content-Length"] == "5")
                #expect(try await response.body.collect(upTo: nil).isEmpty)
            }
            #expect(server.requests.first?.method == "HEAD")
        }

        @Test("a 204 has an empty body")
        func noContent() async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 204) }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let response = try await transport.send("empty", on: server)

                #expect(response.statusCode == 204)
                #expect(try await response.body.collect(upTo: nil).isEmpty)
            }
        }

        @Test("a chunked body's first chunk is delivered before the server has sent the rest")
        func chunkedBodyStreams() async throws {
            let gate = DispatchSemaphore(value: 0)
            let server = try LoopbackHTTPServer { _ in
                .chunked(first: Data("first".utf8), gate: gate, rest: [Data("second".utf8), Data("third".utf8)])
            }
            defer {
                gate.signal()
                server.stop()
            }
            try await withOwnedTransport { transport in
                let start = ContinuousClock.now
                let response = try await transport.send("stream", on: server)
                var chunks = response.body.makeAsyncIterator()

                // The server holds back the rest until the gate opens (or 30 s pass), so a
                // transport that waited for the whole body would only get here after that.
                #expect(try await chunks.next() == Data("first".utf8))
                #expect(ContinuousClock.now - start < .seconds(25))
                gate.signal()
                var rest = Data()
                while let chunk = try await chunks.next() { rest.append(chunk) }
                #expect(rest == Data("secondthird".utf8))
            }
        }

        @Test("a gzip body arrives decoded, after the transport asked for compression")
        func gzip() async throws {
            let compressed = TransportTestRoutes.compressed
            let server = try LoopbackHTTPServer { _ in
                .response(status: 200, headers: ["Content-Encoding": "gzip"], body: compressed.compressed)
            }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let response = try await transport.send("compressed", on: server)

                let body = try await response.body.collect(upTo: nil)
                // Compared piecewise: a failed `==` on megabytes makes the test library diff them
                // element by element, which takes minutes.
                #expect(body.count == compressed.decodedCount)
                #expect(body.allSatisfy { $0 == 0x63 })
            }
            #expect(server.requests.first?.header("Accept-Encoding")?.contains("gzip") == true)
        }

        @Test("a redirect is returned as it is, never followed")
        func redirectReturned() async throws {
            let server = try LoopbackHTTPServer { request in
                request.path == "/old"
                    ? .response(status: 302, headers: ["Location": "/new"], body: Data("moved".utf8))
                    : .response(status: 200, body: Data("new".utf8))
            }
            defer { server.stop() }
            try await withOwnedTransport { transport in
                let response = try await transport.send("old", on: server)

                #expect(response.statusCode == 302)
                #expect(response.headers["Location"] == "/new")
                #expect(try await response.body.collect(upTo: nil) == Data("moved".utf8))
            }
            #expect(server.requests.map(\.path) == ["/old"])
        }

        @Test(
            "bodies from memory, a file and a stream go out with the right framing",
            arguments: ["bytes", "file", "stream with length", "stream without length"])
        func requestBodies(kind: String) async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 200) }
            defer { server.stop() }
            let payload = Data(repeating: 0x41, count: 200_000)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("ahc-body-\(UUID()).bin")
            try payload.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let body: TransportRequestBody =
                switch kind {
                case "bytes": .bytes(payload)
                case "file": try .file(at: file)
                case "stream with length": .stream(ByteStream(payload), length: payload.count)
                default: .stream(ByteStream(payload))
                }

            try await withOwnedTransport { transport in
                let response = try await transport.send("upload", on: server, method: .post, body: body)
                #expect(response.statusCode == 200)
            }

            let request = try #require(server.requests.first)
            #expect(request.method == "POST")
            if kind == "stream without length" {
                #expect(request.header("Transfer-Encoding") == "chunked")
            } else {
                #expect(request.header("Content-Length") == "200000")
            }
        }
    }
#endif
