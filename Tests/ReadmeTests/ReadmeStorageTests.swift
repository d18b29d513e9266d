import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

struct Product: Codable, Sendable {
    let id: Int
    let name: String
}

struct CatalogRequest: StorableRequest {
    typealias Response = [Product]

    var maximumStorageAge: Duration { .seconds(60) }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("catalog"))
    }
}

@Suite("README: response storage")
struct ReadmeStorageTests {
    @Test("stores, policies and stored-then-fresh behave as the README says")
    func storage() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: [["id": 1, "name": "Tea"]], headers: ["ETag": "\"v1\""]))
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!), session: session)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        var shown: [String] = []
        func show(_ products: [Product], note: String) { shown.append(note) }

        let memory = InMemoryResponseStore(byteBudget: 5 * 1024 * 1024)
        let disk = try DiskResponseStore(directory: directory, byteBudget: 50 * 1024 * 1024)

        let catalog = try await network.send(CatalogRequest(), storage: disk, policy: .storedIfFresh)
        print(catalog.value.count, catalog.source, catalog.age)

        for try await update in network.storedThenFresh(CatalogRequest(), storage: memory) {
            show(update.value, note: update.source == .store ? "saved \(update.age) ago" : "up to date")
        }

        #expect(catalog.source == .network)
        #expect(shown == ["up to date"])
        let again = try await network.send(CatalogRequest(), storage: disk, policy: .storedIfFresh)
        #expect(again.source == .store)
        #expect(session.recordedRequests.count == 2)
    }
}

struct AccountToken: Sendable {
    var userID: String
    var value: String
}

struct SignInRequired: Error {}

struct AccountAuthenticator: Authenticator {
    func apply(_ credential: AccountToken, to request: inout NetworkRequest) {
        request.headers["Authorization"] = "Bearer \(credential.value)"
    }

    func refresh(_ credential: AccountToken?) async throws -> AccountToken {
        throw SignInRequired()
    }

    func storagePartition(for credential: AccountToken) -> StoragePartition? {
        StoragePartition(credential.userID)
    }
}

@Suite("README: storage partitions")
struct ReadmeStoragePartitionTests {
    @Test("an authenticated response is stored in the user's partition and removed on sign-out")
    func partitions() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: [["id": 1, "name": "Tea"]]))
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!), session: session)
        let account = AccountToken(userID: "user-42", value: "secret")
        network.add(action: AuthenticatingAction(authenticator: AccountAuthenticator(), credential: account))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try DiskResponseStore(directory: directory)

        _ = try await network.send(CatalogRequest(), storage: disk, policy: .storedIfFresh)
        let stored = try await network.send(CatalogRequest(), storage: disk, policy: .storedIfFresh)
        #expect(stored.source == .store)

        await disk.removeAll(in: StoragePartition(account.userID))

        #expect(disk.count == 0)
        let fetched = try await network.send(CatalogRequest(), storage: disk, policy: .storedIfFresh)
        #expect(fetched.source == .network)
        #expect(session.recordedRequests.count == 2)
    }
}
