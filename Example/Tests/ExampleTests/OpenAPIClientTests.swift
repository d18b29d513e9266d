import DemoClient
import DemoOpenAPI
import DemoServer
import ECNetworking
import Foundation
import OpenAPIRuntime
import Testing

/// The client swift-openapi-generator made from `Sources/DemoOpenAPI/openapi.yaml`, sending
/// through a ``DemoClient``'s network against the real server.
@Suite("The generated OpenAPI client, end to end", .timeLimit(.minutes(1)))
struct OpenAPIClientTests {
    @Test("operations log in on demand once, go out with the token and decode; a 404 is the documented output")
    func operationsThroughTheNetwork() async throws {
        try await withDemoServer { server in
            let events = StageEventLog()
            let demo = makeClient(for: server, events: events)
            let api = Client(serverURL: server.baseURL, transport: NetworkClientTransport(network: demo.network))

            // Three operations at once, none with a token yet: they share one login.
            async let online = api.listUsers(query: .init(online: true))
            async let offline = api.listUsers(query: .init(online: false))
            async let first = api.getUser(path: .init(id: 1))
            let (onlineUsers, offlineUsers, user) = try await (
                online.ok.body.json, offline.ok.body.json, first.ok.body.json
            )
            let missing = try await api.getUser(path: .init(id: 999_999))

            #expect(!onlineUsers.isEmpty && onlineUsers.allSatisfy(\.online))
            #expect(!offlineUsers.isEmpty && offlineUsers.allSatisfy { !$0.online })
            #expect(user.id == 1 && user.name == "Ada Lovelace")
            #expect(try missing.notFound.body.json.error == "not_found")
            #expect(await demo.refreshCount == 1)
            #expect(await server.recorder.loginCount == 1)
            let listings = await server.recorder.requests(path: "/users")
            #expect(listings.map(\.query).sorted { ($0 ?? "") < ($1 ?? "") } == ["online=false", "online=true"])
            #expect(listings.allSatisfy { $0.headers.values(for: "Authorization").first?.hasPrefix("Bearer ") == true })
            #expect(events.events.filter { $0.stage == .completed }.count == 5)  // the login and four operations
        }
    }

    @Test("a stopped server reaches the caller as ClientError wrapping the transport error, without the token")
    func transportFailure() async throws {
        let server = try await DemoServer.start()
        let demo = makeClient(for: server) { $0.retryPolicy = nil }
        let api = Client(serverURL: server.baseURL, transport: NetworkClientTransport(network: demo.network))
        _ = try await api.getUser(path: .init(id: 1)).ok
        let token = try #require(await demo.token?.token)
        await server.stop()

        let error = try await #require(throws: ClientError.self) {
            _ = try await api.getUser(path: .init(id: 1))
        }

        guard case .transport? = error.underlyingError as? NetworkError else {
            Issue.record("expected a transport error, got \(error.underlyingError)")
            return
        }
        #expect(!"\(error)".contains(token))
        #expect(!String(reflecting: error).contains(token))
        #expect(!error.localizedDescription.contains(token))
    }
}
