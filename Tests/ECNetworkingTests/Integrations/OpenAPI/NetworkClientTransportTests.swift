#if OpenAPI
    import ECNetworking
    import ECNetworkingTesting
    import Foundation
    import HTTPTypes
    @_spi(Generated) import OpenAPIRuntime
    import TestSupport
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// What a generated client hands its transport for `GET {path}` with `fields`.
    private func clientRequest(
        _ method: HTTPRequest.Method = .get,
        path: String,
        fields: [(String, String)] = []
    ) -> HTTPRequest {
        var headerFields = HTTPFields()
        for (name, value) in fields {
            headerFields.append(HTTPField(name: HTTPField.Name(name)!, value: value))
        }
        return HTTPRequest(method: method, scheme: nil, authority: nil, path: path, headerFields: headerFields)
    }

    /// The bytes of a response body the transport returned.
    private func bytes(of body: HTTPBody?) async throws -> Data {
        guard let body else { return Data() }
        return try await Data(collecting: body, upTo: 1024 * 1024)
    }

    @Suite("OpenAPI trait: a generated client's transport over a Network")
    struct NetworkClientTransportTests {
        @Test("an operation runs the network's will-begin actions: their header reaches the wire")
        func actionsRun() async throws {
            let (network, session) = makeStubbedNetwork(answering: MockResponse(statusCode: 200))
            network.add(action: AddHeader(name: "Authorization", value: "Bearer token-1"))
            let transport = NetworkClientTransport(network: network)

            let (response, _) = try await transport.send(
                clientRequest(path: "/users"), body: nil, baseURL: testBaseURL, operationID: "listUsers")

            #expect(response.status.code == 200)
            let sent = try #require(session.recordedRequests.first)
            #expect(sent.url?.absoluteString == "https://api.example.com/v1/users")
            #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
        }

        @Test("the method, the path joined to the base URL, the query as encoded and repeated headers go out")
        func requestMapping() async throws {
            let fake = FakeNetwork(baseURL: testBaseURL, runsActions: true)
            fake.stubNetworkRequests(with: NetworkResponse(statusCode: 204))
            let transport = NetworkClientTransport(network: fake)

            _ = try await transport.send(
                clientRequest(
                    .delete, path: "/users/7?tag=a&tag=b%20c",
                    fields: [("X-Tag", "one"), ("Accept", "application/json"), ("X-Tag", "two")]),
                body: nil, baseURL: URL(string: "https://api.example.com/v1/")!, operationID: "deleteUser")

            let sent = try #require(fake.sentNetworkRequests.first)
            #expect(sent.method == .delete)
            #expect(sent.url.absoluteString == "https://api.example.com/v1/users/7?tag=a&tag=b%20c")
            #expect(sent.headers.values(for: "X-Tag") == ["one", "two"])
            #expect(sent.headers.fields.map(\.name) == ["X-Tag", "Accept", "X-Tag"])
            #expect(sent.customProperties[OpenAPIOperationID.self] == "deleteUser")
        }

        @Test(
            "on the wire, repeated request fields go out as they are over async-http-client, and joined by commas into one over URLSession",
            arguments: TransportKind.allCases)
        func repeatedFieldsOnTheWire(_ kind: TransportKind) async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 204) }
            defer { server.stop() }
            try await kind.withNetwork(baseURL: server.baseURL) { network in
                _ = try await NetworkClientTransport(network: network).send(
                    clientRequest(path: "/tags", fields: [("X-Tag", "one"), ("X-Tag", "two")]), body: nil,
                    baseURL: server.baseURL, operationID: "tags")
            }
            // The server joins fields it received apart with ", "; Foundation's own join has no space.
            let received = try #require(server.requests.first).header("X-Tag")
            #expect(received == (kind.joinsRepeatedHeaderFields ? "one,two" : "one, two"))
        }

        @Test("a request body goes out as sent and the response's status, repeated headers and body come back")
        func bodyRoundTrip() async throws {
            let fake = FakeNetwork(baseURL: testBaseURL, runsActions: true)
            fake.stubNetworkRequests { request in
                guard let data = try request.body?.encoded(defaultEncoder: JSONEncoder()).data else {
                    return NetworkResponse(statusCode: 400)
                }
                return NetworkResponse(
                    statusCode: 201,
                    headers: HTTPHeaders([
                        .init(name: "Set-Cookie", value: "a=1"), .init(name: "Content-Type", value: "application/json"),
                        .init(name: "Set-Cookie", value: "b=2"),
                    ]),
                    body: Data(data.reversed()))
            }
            let transport = NetworkClientTransport(network: fake)
            // A small body of known length is read into memory, so a retry could send it again.
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                continuation.yield(ArraySlice("{\"name\":".utf8))
                continuation.yield(ArraySlice("\"Ada\"}".utf8))
                continuation.finish()
            }

            let (response, body) = try await transport.send(
                clientRequest(.post, path: "/users", fields: [("Content-Type", "application/json")]),
                body: HTTPBody(chunks, length: .known(14)), baseURL: testBaseURL, operationID: "createUser")

            #expect(response.status.code == 201)
            #expect(response.headerFields.map(\.name.rawName) == ["Set-Cookie", "Content-Type", "Set-Cookie"])
            #expect(response.headerFields[values: .setCookie] == ["a=1", "b=2"])
            #expect(try await bytes(of: body) == Data("}\"adA\":\"eman\"{".utf8))
            #expect(fake.sentNetworkRequests.first?.headers["Content-Type"] == "application/json")
            #expect(fake.sentNetworkRequests.first?.body?.isReplayable == true)
        }

        @Test("an error status comes back as a response, also after the retry policy gave up")
        func errorStatusIsAResponse() async throws {
            let session = MockSession()
            session.stub(
                .any,
                with: [
                    MockResponse(statusCode: 404, data: Data("{\"error\":\"no such user\"}".utf8)),
                    MockResponse(statusCode: 503), MockResponse(statusCode: 503),
                ])
            let network = makeNetwork(session: session) {
                $0.retryPolicy = RetryPolicy(maximumAttempts: 2, baseDelay: .zero, jitter: 0)
            }
            let transport = NetworkClientTransport(network: network)

            let (notFound, body) = try await transport.send(
                clientRequest(path: "/users/9"), body: nil, baseURL: testBaseURL, operationID: "getUser")
            let (unavailable, _) = try await transport.send(
                clientRequest(path: "/users/9"), body: nil, baseURL: testBaseURL, operationID: "getUser")

            #expect(notFound.status.code == 404)
            #expect(try await bytes(of: body) == Data("{\"error\":\"no such user\"}".utf8))
            #expect(unavailable.status.code == 503)
            #expect(session.recordedRequests.count == 3)
        }

        @Test("a transport failure reaches the client as ClientError wrapping the NetworkError")
        func transportFailure() async throws {
            let (network, _) = makeStubbedNetwork(answering: .failure(.notConnectedToInternet))
            let client = UniversalClient(serverURL: testBaseURL, transport: NetworkClientTransport(network: network))

            let error = try await #require(throws: ClientError.self) {
                try await client.send(
                    input: "", forOperation: "listUsers",
                    serializer: { _ in (clientRequest(path: "/users"), nil) },
                    deserializer: { response, _ in response.status.code })
            }
            guard case .transport(let urlError)? = error.underlyingError as? NetworkError else {
                Issue.record("not a transport error: \(error.underlyingError)")
                return
            }
            #expect(urlError.code == .notConnectedToInternet)
            #expect(error.operationID == "listUsers")
        }

        @Test(
            "a body of unknown length, or larger than the buffer, streams; a retry of it is refused, its answer stands")
        func largeOrUnknownBodiesStream() async throws {
            let session = MockSession()
            session.stub(.any, with: [MockResponse(statusCode: 201), MockResponse(statusCode: 503)])
            let network = makeNetwork(session: session) {
                $0.retryPolicy = RetryPolicy(maximumAttempts: 3, baseDelay: .zero, jitter: 0)
            }
            let transport = NetworkClientTransport(network: network, maximumBufferedRequestBodySize: 4)
            let unknownLength = AsyncStream<ArraySlice<UInt8>> { continuation in
                continuation.yield(ArraySlice("ab".utf8))
                continuation.yield(ArraySlice("cd".utf8))
                continuation.finish()
            }

            let (created, _) = try await transport.send(
                clientRequest(.post, path: "/uploads"), body: HTTPBody(unknownLength, length: .unknown),
                baseURL: testBaseURL, operationID: "upload")
            let (unavailable, _) = try await transport.send(
                clientRequest(.post, path: "/uploads"), body: HTTPBody("12345"), baseURL: testBaseURL,
                operationID: "upload")

            #expect(created.status.code == 201)
            // The 503 would be retried, but the streamed body is spent: the answer comes back as it is.
            #expect(unavailable.status.code == 503)
            #expect(session.recordedRequests.count == 2)
            #expect(session.recordedRequests.map(\.httpBody) == [Data("abcd".utf8), Data("12345".utf8)])
        }

        @Test("no planted secret shows in any description of the error the client receives")
        func noSecretInErrors() async throws {
            let (network, _) = makeStubbedNetwork(answering: .failure(.cannotConnectToHost))
            network.add(action: AddHeader(name: "Authorization", value: "Bearer \(Planted.authorization)"))
            let client = UniversalClient(
                serverURL: URL(string: "https://ada:\(Planted.userinfo)@api.example.com/v1")!,
                transport: NetworkClientTransport(network: network))
            let request = clientRequest(
                .post, path: "/login?access_token=\(Planted.accessToken)&page=2",
                fields: [("Authorization", "Bearer \(Planted.authorization)"), ("X-Api-Key", Planted.apiKey)])

            let error = try await #require(throws: ClientError.self) {
                try await client.send(
                    input: "password=\(Planted.password)", forOperation: "login",
                    serializer: { _ in (request, HTTPBody(Planted.body)) },
                    deserializer: { response, _ in response.status.code })
            }

            expectNoSecrets(
                in: [
                    "description": error.description,
                    "errorDescription": error.errorDescription ?? "",
                    "localizedDescription": error.localizedDescription,
                    "reflecting": String(reflecting: error),
                    "interpolated": "\(error)",
                    "underlying": "\(error.underlyingError)",
                ],
                Planted.coveredByDefaults)
            // The redacted request still says what was sent.
            #expect(error.request?.path == "/login?access_token=%3Credacted%3E&page=2")
            #expect(error.request?.headerFields[.authorization] == "<redacted>")
        }
    }
#endif
