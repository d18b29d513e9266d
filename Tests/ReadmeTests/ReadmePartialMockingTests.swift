import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("README: partial mocking and reading the store")
struct ReadmePartialMockingTests {
    /// A network that stands for the staging server: a real pipeline over a MockSession.
    static func stagingNetwork() -> (URLSessionNetwork, MockSession) {
        let session = MockSession()
        session.stub(.path("/search"), with: MockResponse(jsonObject: [["id": 7, "name": "Found"]]))
        let staging = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: URL(string: "https://staging.example.com")!), session: session)
        return (staging, session)
    }

    @Test("a fake answers stubbed types and passes the others, or chosen ones, to another network")
    func partialMocking() async throws {
        let (staging, session) = Self.stagingNetwork()

        // Stubbed types are answered by the fake; every other type goes through `staging`'s own pipeline.
        let network = FakeNetwork(passingUnstubbedRequestsTo: staging)
        network.stub(ListUsersRequest.self, with: [User(id: 1, name: "Ada")])

        let users = try await network.send(ListUsersRequest(online: true))
        let found = try await network.send(SearchRequest(text: "tea", tags: []))

        // Or only chosen types go elsewhere, and any other unstubbed type still fails loudly.
        let routed = FakeNetwork()
        routed.route(SearchRequest.self, to: staging)

        #expect(users.map(\.name) == ["Ada"])
        #expect(found.map(\.name) == ["Found"])
        #expect(session.recordedRequests.count == 1)
        #expect(try await routed.send(SearchRequest(text: "tea", tags: [])).map(\.name) == ["Found"])
        await #expect(throws: FakeNetworkError.self) { _ = try await routed.send(ListUsersRequest(online: true)) }
    }

    @Test("storedValue reads what a storage send kept, without a network call")
    func readingTheStore() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: [["id": 1, "name": "Tea"]]))
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!), session: session)
        let disk = InMemoryResponseStore()
        var shown: [String] = []
        func show(_ products: [Product], note: String) { shown.append(note) }
        #expect(try await network.storedValue(for: CatalogRequest(), in: disk) == nil)
        _ = try await network.send(CatalogRequest(), storage: disk, policy: .networkOnly)

        // No network call: the same key, partition and Vary rules as a send through `disk`.
        if let saved = try await network.storedValue(for: CatalogRequest(), in: disk) {
            show(saved.value, note: "saved \(saved.age) ago")
        }

        #expect(shown.count == 1)
        #expect(session.recordedRequests.count == 1)
    }
}
