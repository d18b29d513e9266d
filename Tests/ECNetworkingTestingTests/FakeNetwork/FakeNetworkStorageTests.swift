import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// `GET /books`, storable.
struct StorableBooksRequest: StorableRequest {
    typealias Response = [Book]
    var customProperties = CustomProperties()

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("books"))
    }
}

@Suite("FakeNetwork storage sends honour the policy with a real store")
struct FakeNetworkStorageTests {
    static let dune = [Book(id: 1, title: "Dune")]
    static let emma = [Book(id: 2, title: "Emma")]

    static func response(_ books: [Book]) -> NetworkResponse {
        NetworkResponse(
            statusCode: 200, headers: ["Content-Type": "application/json"], body: try! JSONEncoder().encode(books))
    }

    static func request(partition: StoragePartition?) -> StorableBooksRequest {
        var request = StorableBooksRequest()
        request.customProperties[StoragePartition.self] = partition
        return request
    }

    @Test("a stub's raw response is stored, and storedIfFresh then answers from the store without a send")
    func storesAndAnswersFromTheStore() async throws {
        let fake = FakeNetwork()
        fake.stub(StorableBooksRequest.self, with: [.networkResponse(Self.response(Self.dune)), .value(Self.emma)])
        let store = InMemoryResponseStore()

        let first = try await fake.send(StorableBooksRequest(), storage: store, policy: .storedIfFresh)
        let second = try await fake.send(StorableBooksRequest(), storage: store, policy: .storedIfFresh)

        #expect(first == StoredValue(value: Self.dune, source: .network))
        #expect(second.value == Self.dune)
        #expect(second.source == .store)
        #expect(fake.sendCount(of: StorableBooksRequest.self) == 1)
        #expect(store.count == 1)
    }

    @Test("networkOnly asks the stub even with a fresh entry; a value stub leaves the store alone")
    func networkOnly() async throws {
        let fake = FakeNetwork()
        fake.stub(StorableBooksRequest.self, with: [.networkResponse(Self.response(Self.dune)), .value(Self.emma)])
        let store = InMemoryResponseStore()
        _ = try await fake.send(StorableBooksRequest(), storage: store, policy: .networkOnly)

        let fresh = try await fake.send(StorableBooksRequest(), storage: store, policy: .networkOnly)

        #expect(fresh == StoredValue(value: Self.emma, source: .network))
        #expect(try await fake.storedValue(for: StorableBooksRequest(), in: store)?.value == Self.dune)
    }

    @Test("networkFallingBackToStored serves the entry when the stub fails as an unreachable server would")
    func fallsBackOnUnavailability() async throws {
        let fake = FakeNetwork()
        fake.stub(
            StorableBooksRequest.self,
            with: [
                .networkResponse(Self.response(Self.dune)),
                .error(NetworkError.transport(URLError(.notConnectedToInternet))),
            ])
        let store = InMemoryResponseStore()
        _ = try await fake.send(StorableBooksRequest(), storage: store, policy: .networkOnly)

        let fallback = try await fake.send(StorableBooksRequest(), storage: store, policy: .networkFallingBackToStored)
        #expect(fallback.value == Self.dune)
        #expect(fallback.source == .store)

        await #expect(throws: NetworkError.self) {
            _ = try await fake.send(StorableBooksRequest(), storage: store, policy: .networkOnly)
        }
    }

    @Test("entries are kept per partition: one identity never reads another's")
    func partitions() async throws {
        let fake = FakeNetwork()
        fake.stub(StorableBooksRequest.self, with: [.networkResponse(Self.response(Self.dune)), .value(Self.emma)])
        let store = InMemoryResponseStore()
        _ = try await fake.send(Self.request(partition: "ada"), storage: store, policy: .networkOnly)

        #expect(try await fake.storedValue(for: Self.request(partition: "ada"), in: store)?.value == Self.dune)
        #expect(try await fake.storedValue(for: Self.request(partition: "bo"), in: store) == nil)
        let bo = try await fake.send(Self.request(partition: "bo"), storage: store, policy: .storedIfFresh)
        #expect(bo == StoredValue(value: Self.emma, source: .network))
    }

    @Test("with runsActions, a partitioning action's identity picks the partition, as in the real network")
    func partitionFromAction() async throws {
        let fake = FakeNetwork(runsActions: true)
        fake.add(action: SignsInAs(user: "ada"))
        fake.stub(StorableBooksRequest.self, with: [.networkResponse(Self.response(Self.dune)), .value(Self.emma)])
        let store = InMemoryResponseStore()
        _ = try await fake.send(StorableBooksRequest(), storage: store, policy: .networkOnly)

        #expect(try await fake.storedValue(for: StorableBooksRequest(), in: store)?.value == Self.dune)
        // The entry is Ada's: without the action, only a request that names her partition finds it.
        let plain = FakeNetwork()
        #expect(try await plain.storedValue(for: Self.request(partition: "ada"), in: store)?.value == Self.dune)
        #expect(try await plain.storedValue(for: StorableBooksRequest(), in: store) == nil)
        #expect(try await plain.storedValue(for: Self.request(partition: "bo"), in: store) == nil)
    }

    @Test("storedThenFresh streams the stored value, then the stub's")
    func storedThenFresh() async throws {
        let fake = FakeNetwork()
        fake.stub(StorableBooksRequest.self, with: [.networkResponse(Self.response(Self.dune)), .value(Self.emma)])
        let store = InMemoryResponseStore()
        _ = try await fake.send(StorableBooksRequest(), storage: store, policy: .networkOnly)

        var updates: [StoredValue<[Book]>] = []
        for try await update in fake.storedThenFresh(StorableBooksRequest(), storage: store) {
            updates.append(update)
        }

        #expect(updates.map(\.value) == [Self.dune, Self.emma])
        #expect(updates.map(\.source) == [.store, .network])
    }

    @Test("a routed type's storage send goes to its network with the same store")
    func routedStorageSend() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: Self.dune))
        let real = makeNetwork(session: session)
        let fake = FakeNetwork(passingUnstubbedRequestsTo: real)
        let store = InMemoryResponseStore()

        let first = try await fake.send(StorableBooksRequest(), storage: store, policy: .storedIfFresh)
        let second = try await fake.send(StorableBooksRequest(), storage: store, policy: .storedIfFresh)

        #expect(first.source == .network)
        #expect(second.source == .store)
        #expect(session.recordedRequests.count == 1)
        #expect(try await fake.storedValue(for: StorableBooksRequest(), in: store)?.value == Self.dune)
    }
}

/// Signs every request as `user`, naming that user's partition before the store is read.
struct SignsInAs: StoragePartitioningAction {
    let user: String

    func storageIdentity(for request: NetworkRequest) async -> StorageIdentity {
        .credential(partition: StoragePartition(user))
    }

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        var request = request
        request.headers["Authorization"] = "Bearer token-of-\(user)"
        request.customProperties[StoragePartition.self] = StoragePartition(user)
        return request
    }
}
