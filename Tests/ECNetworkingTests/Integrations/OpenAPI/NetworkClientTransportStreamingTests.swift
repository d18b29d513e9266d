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
    }
#endif
