#if AsyncHTTPClient
    import AsyncHTTPClient
    import ECNetworking
    import Foundation
    import NIOPosix
    import TestSupport
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    // The README's "AsyncHTTPClient transport" snippets, verbatim; compiled only with the trait.
    @Suite("README: AsyncHTTPClient transport")
    struct ReadmeAsyncHTTPClientTests {
        /// A loopback port nothing listens on: the first port of the reserved range.
        private let deadURL = URL(string: "http://127.0.0.1:1/users")!

        @Test("the one line that sends through AsyncHTTPClientTransport reaches a loopback server")
        func oneLine() async throws {
            let server = try LoopbackHTTPServer { _ in
                .response(status: 200, headers: ["Content-Type": "application/json"], body: Data("[]".utf8))
            }
            defer { server.stop() }
            let configuration = NetworkConfiguration(baseURL: server.baseURL)

            let network = HTTPNetwork(configuration: configuration, transport: AsyncHTTPClientTransport())

            let response = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("users")))
            #expect(response.statusCode == 200)
            #expect(response.body == Data("[]".utf8))
            // The transport's own User-Agent shows that it, not URLSession, carried the request.
            #expect(server.requests.first?.header("User-Agent") == "ECNetworking")
        }

        @Test("the tuned transport reports a refused connection as cannotConnectToHost")
        func tunedTransport() async throws {
            let tuned = AsyncHTTPClientTransport(
                configuration: .init(
                    maximumConnectionsPerHost: 16, connectTimeout: .seconds(2), idleConnectionTimeout: .seconds(30))
            )

            do {
                _ = try await tuned.send(TransportRequest(method: .get, url: deadURL))
                Issue.record("a send to a port nobody listens on succeeded")
            } catch NetworkError.transport(let error) {
                #expect(error.code == .cannotConnectToHost)
            }
            try await tuned.shutdown()
        }

        @Test("a transport over your own client leaves the client running after its own shutdown")
        func ownClient() async throws {
            var clientConfiguration = HTTPClient.Configuration(
                redirectConfiguration: .disallow, decompression: .enabled(limit: .ratio(250)))
            clientConfiguration.tracing.tracer = nil
            let client = HTTPClient(
                eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: clientConfiguration)
            let ownClient = AsyncHTTPClientTransport(client: client)

            try await ownClient.shutdown()
            // Still running: shutting it down here succeeds, where a second shutdown would throw.
            try await client.shutdown()
        }
    }
#endif
