#if OpenAPI
    import ECNetworking
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime
    import TestSupport
    import Testing

    /// A generated client's response body streams through ``NetworkClientTransport`` as it arrives,
    /// on a real socket, over every transport.
    @Suite("OpenAPI trait: response bodies stream", .timeLimit(.minutes(1)))
    struct NetworkClientTransportStreamingTests {
        private static func chunk(_ text: String) -> Data {
            Data((String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n").utf8)
        }

        @Test(
            "the body's first part reaches the client before the server sends the rest",
            arguments: TransportKind.allCases)
        func bodyArrivesAsSent(_ kind: TransportKind) async throws {
            let gate = DispatchSemaphore(value: 0)
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/jsonl\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            let server = try LoopbackHTTPServer { _ in
                .raw(
                    Data(head.utf8) + Self.chunk("{\"n\":1}\n"), gate: gate,
                    rest: Self.chunk("{\"n\":2}\n") + Data("0\r\n\r\n".utf8))
            }
            defer { server.stop() }
            try await kind.withNetwork(baseURL: server.baseURL) { network in
                let transport = NetworkClientTransport(network: network)
                let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/events")
                let (response, body) = try await transport.send(
                    request, body: nil, baseURL: server.baseURL, operationID: "events")
                #expect(response.status.code == 200)
                var chunks = try #require(body).makeAsyncIterator()
                var received = Data(try #require(try await chunks.next()))
                #expect(String(decoding: received, as: UTF8.self) == "{\"n\":1}\n")
                gate.signal()
                while let chunk = try await chunks.next() { received.append(contentsOf: chunk) }
                #expect(String(decoding: received, as: UTF8.self) == "{\"n\":1}\n{\"n\":2}\n")
            }
        }

        @Test(
            "an answer without content (204, 304, to HEAD) comes back with no body and an empty one with an empty body, and each send ends as a success though the client reads nothing; a body let go unread ends its send as cancelled",
            arguments: TransportKind.allCases)
        func answersWithoutContent(_ kind: TransportKind) async throws {
            let server = try LoopbackHTTPServer { request in
                if request.method == "HEAD" {
                    // The length a GET's body would have, and no body.
                    return .raw(Data("HTTP/1.1 200 OK\r\nContent-Length: 200000\r\nConnection: close\r\n\r\n".utf8))
                }
                return switch request.path {
                case "/deleted": .response(status: 204)
                case "/unchanged": .response(status: 304)
                case "/empty": .response(status: 200)
                default: .response(status: 200, body: Data(repeating: 0x61, count: 200_000))
                }
            }
            defer { server.stop() }
            // Each send's end, as the metrics hook hears of it: `nil` for a success.
            let ends = Log<String?>()
            try await kind.withNetwork(
                baseURL: server.baseURL,
                configure: {
                    $0.acceptableStatusCodes = Set(200..<400)
                    $0.metricsHandler = { metrics in ends.append(metrics.error.map { "\($0)" }) }
                }
            ) { network in
                let transport = NetworkClientTransport(network: network)
                let operations: [(HTTPRequest.Method, String, Int, Bool)] = [
                    (.delete, "/deleted", 204, false), (.get, "/unchanged", 304, false), (.head, "/page", 200, false),
                    (.get, "/empty", 200, true),
                ]
                for (method, path, status, hasBody) in operations {
                    let request = HTTPRequest(method: method, scheme: nil, authority: nil, path: path)
                    let (response, body) = try await transport.send(
                        request, body: nil, baseURL: server.baseURL, operationID: "operation")
                    #expect(response.status.code == status, "\(method) \(path)")
                    #expect((body != nil) == hasBody, "\(method) \(path)")
                    if let body { #expect(body.length == .known(0)) }
                }
                // A body the client drops unread: its transfer stops, and the send is a cancelled one.
                let (response, _) = try await transport.send(
                    HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/page"), body: nil,
                    baseURL: server.baseURL, operationID: "undocumented")
                #expect(response.status.code == 200)
            }
            // Each end is reported when its body ends, the dropped one's as it is let go.
            let deadline = ContinuousClock.now + .seconds(10)
            while ends.all.count < 5, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            let reported = ends.all
            #expect(reported.count == 5)
            #expect(reported.prefix(4).allSatisfy { $0 == nil }, "\(reported)")
            #expect(reported.last??.contains("cancelled") == true, "\(reported)")
        }
    }
#endif
