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

    /// Stands in for a client swift-openapi-generator makes: the same initializer, and one
    /// operation built the way generated code builds them.
    private struct Client {
        private let client: UniversalClient

        init(serverURL: URL, transport: any ClientTransport) {
            client = UniversalClient(serverURL: serverURL, transport: transport)
        }

        /// `GET /users`, answering the status.
        func listUsers() async throws -> Int {
            try await client.send(
                input: (), forOperation: "listUsers",
                serializer: { _ in (HTTPRequest(soar_path: "/users", method: .get), nil) },
                deserializer: { response, _ in response.status.code })
        }
    }

    /// The README's "OpenAPI clients" snippet, run as written.
    @Suite("README: OpenAPI clients")
    struct ReadmeOpenAPITests {
        @Test("a generated client sends through the network, its actions included")
        func generatedClient() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 200))
            let network = URLSessionNetwork(
                configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com/v1")!),
                session: session)
            network.add(action: AddHeader(name: "Authorization", value: "Bearer token"))

            let transport = NetworkClientTransport(network: network)
            let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: transport)

            #expect(try await client.listUsers() == 200)
            let sent = try #require(session.recordedRequests.first)
            #expect(sent.url?.absoluteString == "https://api.example.com/v1/users")
            #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer token")
        }
    }
#endif
