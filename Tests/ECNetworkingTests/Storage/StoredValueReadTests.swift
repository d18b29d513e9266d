import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Reading the store without the network")
struct StoredValueReadTests {
    typealias Fixtures = StorageFixtures

    @Test("storedValue returns what a storage send stored, with its age, and sends nothing")
    func readsWhatASendStored() async throws {
        let (network, session) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.ada))
        let store = InMemoryResponseStore()
        #expect(try await network.storedValue(for: StorableUsersRequest(), in: store) == nil)

        _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)
        let stored = try await network.storedValue(for: StorableUsersRequest(), in: store)

        #expect(stored?.value == Fixtures.ada)
        #expect(stored?.source == .store)
        #expect(session.recordedRequests.count == 1)
    }

    @Test("storedValue reports how old the entry is")
    func reportsAge() async throws {
        let (network, _) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.bo))
        let store = InMemoryResponseStore()
        await store.store(Fixtures.stored(Fixtures.ada, age: 120), for: Fixtures.usersKey)

        let stored = try await network.storedValue(for: StorableUsersRequest(), in: store)

        #expect(stored?.value == Fixtures.ada)
        #expect((stored?.age ?? .zero) >= .seconds(119))
    }

    @Test("a stored answer never crosses identities: each partition reads only its own entry")
    func keepsPartitionsApart() async throws {
        let session = MockSession()
        session.stub(
            .header(name: "Authorization", value: "Bearer token-of-ada"), with: MockResponse(json: Fixtures.ada))
        session.stub(.header(name: "Authorization", value: "Bearer token-of-bo"), with: MockResponse(json: Fixtures.bo))
        let network = makeNetwork(session: session)
        let user = SignedInUser("ada")
        network.add(action: user)
        let store = InMemoryResponseStore()
        _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)

        user.signIn("bo")
        #expect(try await network.storedValue(for: StorableUsersRequest(), in: store) == nil)
        _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)
        #expect(try await network.storedValue(for: StorableUsersRequest(), in: store)?.value == Fixtures.bo)

        user.signIn("ada")
        #expect(try await network.storedValue(for: StorableUsersRequest(), in: store)?.value == Fixtures.ada)
        #expect(session.recordedRequests.count == 2)
    }

    @Test("a request's own partition is honoured without any action")
    func requestPartition() async throws {
        let (network, _) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.ada))
        let store = InMemoryResponseStore()
        var ada = StorableUsersRequest()
        ada.customProperties[StoragePartition.self] = "ada"
        var bo = StorableUsersRequest()
        bo.customProperties[StoragePartition.self] = "bo"
        _ = try await network.send(ada, storage: store, policy: .networkOnly)

        #expect(try await network.storedValue(for: ada, in: store)?.value == Fixtures.ada)
        #expect(try await network.storedValue(for: bo, in: store) == nil)
        #expect(try await network.storedValue(for: StorableUsersRequest(), in: store) == nil)
    }

    @Test("an entry answers only a request whose Vary headers match")
    func respectsVary() async throws {
        let (network, _) = makeStubbedNetwork(
            answering: MockResponse(json: Fixtures.ada, headers: ["Vary": "Accept-Language"]))
        let store = InMemoryResponseStore()
        _ = try await network.send(LocalizedUsersRequest(language: "en"), storage: store, policy: .networkOnly)

        #expect(try await network.storedValue(for: LocalizedUsersRequest(language: "en"), in: store) != nil)
        #expect(try await network.storedValue(for: LocalizedUsersRequest(language: "fr"), in: store) == nil)
    }

    @Test("an entry that no longer decodes reads as nil and is removed")
    func undecodableEntry() async throws {
        let (network, _) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.ada))
        let store = InMemoryResponseStore()
        await store.store(StoredResponse(statusCode: 200, body: Data("not json".utf8)), for: Fixtures.usersKey)

        #expect(try await network.storedValue(for: StorableUsersRequest(), in: store) == nil)
        #expect(await store.storedResponse(for: Fixtures.usersKey) == nil)
    }

    @Test("code that holds any Network reads the store and sends through it")
    func throughTheProtocol() async throws {
        let (concrete, _) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.ada))
        let network: any Network = concrete
        let store = InMemoryResponseStore()

        let sent = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
        let again = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
        var sources: [ResponseSource] = []
        for try await update in network.storedThenFresh(StorableUsersRequest(), storage: store) {
            sources.append(update.source)
        }

        #expect(sent.source == .network)
        #expect(again.source == .store)
        #expect(sources == [.store, .network])
        #expect(try await network.storedValue(for: StorableUsersRequest(), in: store)?.value == Fixtures.ada)
    }
}
