#if canImport(FoundationNetworking)
    import ECNetworking
    import Foundation
    import TestSupport
    import Testing

    /// What each transport does with parts of a request the library passes on as they are, where
    /// the transports differ (Transports.md's table): the `User-Agent` a request without one gets,
    /// credentials in its URL, and a GET with a body. The URLSession rows are FoundationNetworking's.
    @Suite("Transport conformance: what each transport does with a request as given", .timeLimit(.minutes(2)))
    struct TransportConformanceAsGivenTests {
        private static func echoServer() throws -> LoopbackHTTPServer {
            try LoopbackHTTPServer { _ in .response(status: 204) }
        }

        @Test(
            "a request without a User-Agent gets libcurl's over URLSession, ECNetworking over async-http-client",
            arguments: TransportKind.allCases)
        func defaultUserAgent(_ kind: TransportKind) async throws {
            let server = try Self.echoServer()
            defer { server.stop() }
            try await kind.withNetwork(baseURL: server.baseURL) { network in
                _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("agent")))
            }
            let agent = try #require(server.requests.first?.header("User-Agent"))
            if kind.usesURLSession {
                #expect(agent.contains("curl/"), "\(agent)")
            } else {
                #expect(agent == "ECNetworking")
            }
        }

        @Test(
            "a stream body goes out with its length when given one; without, chunked over async-http-client and with the gathered length over URLSession",
            arguments: TransportKind.allCases)
        func streamBodyFraming(_ kind: TransportKind) async throws {
            let server = try Self.echoServer()
            defer { server.stop() }
            let chunks = [Data("id,name\n".utf8), Data("1,Ada\n".utf8)]
            try await kind.withNetwork(baseURL: server.baseURL) { network in
                for length in [14, nil] {
                    _ = try await network.send(
                        NetworkRequest(
                            method: .post, url: server.baseURL.appendingPathComponent("import"),
                            body: .stream(
                                AsyncStream { rows in
                                    for chunk in chunks { rows.yield(chunk) }
                                    rows.finish()
                                }, length: length, contentType: "text/csv")))
                }
            }
            let (given, unknown) = (server.requests[0], server.requests[1])
            #expect(given.header("Content-Length") == "14" && given.header("Transfer-Encoding") == nil)
            #expect(given.body == Data("id,name\n1,Ada\n".utf8) && unknown.body == given.body)
            if kind.usesURLSession {
                #expect(unknown.header("Content-Length") == "14" && unknown.header("Transfer-Encoding") == nil)
            } else {
                #expect(unknown.header("Transfer-Encoding") == "chunked" && unknown.header("Content-Length") == nil)
            }
        }

        @Test(
            "credentials in the URL go out as Basic over URLSession, and not at all over async-http-client",
            arguments: TransportKind.allCases)
        func credentialsInURL(_ kind: TransportKind) async throws {
            let server = try Self.echoServer()
            defer { server.stop() }
            let url = try #require(URL(string: "http://ada:pw@127.0.0.1:\(server.port)/private"))
            try await kind.withNetwork(baseURL: server.baseURL) { network in
                _ = try await network.send(NetworkRequest(url: url))
            }
            let authorization = server.requests.first?.header("Authorization")
            #expect(authorization == (kind.usesURLSession ? "Basic " + Data("ada:pw".utf8).base64EncodedString() : nil))
        }

        @Test(
            "a GET with a body is refused before anything is sent over URLSession, and sent over async-http-client",
            arguments: TransportKind.allCases)
        func getWithBody(_ kind: TransportKind) async throws {
            let server = try Self.echoServer()
            defer { server.stop() }
            let body = Data(#"{"q":1}"#.utf8)
            let request = NetworkRequest(
                url: server.baseURL.appendingPathComponent("search"), body: .data(body, contentType: "application/json")
            )
            if kind.usesURLSession {
                let error = try await kind.withNetwork(baseURL: server.baseURL) { network in
                    await networkError { _ = try await network.send(request) }
                }
                #expect(error?.transportCode == .dataLengthExceedsMaximum, "\(String(describing: error))")
                #expect(server.requests.isEmpty)
            } else {
                try await kind.withNetwork(baseURL: server.baseURL) { network in
                    _ = try await network.send(request)
                }
                #expect(server.requests.first?.body == body)
            }
        }
    }
#endif
