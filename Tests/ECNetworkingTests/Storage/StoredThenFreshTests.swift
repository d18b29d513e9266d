import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

extension StorageTests {
    @Suite("Stored, then fresh")
    struct StoredThenFresh {
        typealias Fixtures = StorageFixtures

        @Test("yields the stored value first, then the network's, and stores the network's")
        func storedThenFreshOrder() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo, delay: .milliseconds(20)))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada, age: 3600), for: Fixtures.usersKey)

            var received: [StoredValue<[User]>] = []
            for try await value in network.storedThenFresh(StorableUsersRequest(), storage: store) {
                received.append(value)
            }

            #expect(received.map(\.value) == [Fixtures.ada, Fixtures.bo])
            #expect(received.map(\.source) == [.store, .network])
            #expect(received[0].age >= .seconds(3600))
            #expect(received[1].age == .zero)
            #expect(Fixtures.users(in: await store.storedResponse(for: Fixtures.usersKey)) == Fixtures.bo)
        }

        @Test("with nothing stored, yields only the network's value")
        func onlyFreshWithoutEntry() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo))
            let network = makeNetwork(session: session)

            var received: [StoredValue<[User]>] = []
            for try await value in network.storedThenFresh(StorableUsersRequest(), storage: InMemoryResponseStore()) {
                received.append(value)
            }

            #expect(received == [StoredValue(value: Fixtures.bo, source: .network)])
        }

        @Test("yields the stored value, then finishes throwing the network's error")
        func storedThenError() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 500))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada), for: Fixtures.usersKey)

            var received: [StoredValue<[User]>] = []
            var thrown: (any Error)?
            do {
                for try await value in network.storedThenFresh(StorableUsersRequest(), storage: store) {
                    received.append(value)
                }
            } catch {
                thrown = error
            }

            #expect(received.map(\.source) == [.store])
            #expect((thrown as? NetworkError)?.statusCode == 500)
            #expect(Fixtures.users(in: await store.storedResponse(for: Fixtures.usersKey)) == Fixtures.ada)
        }

        @Test("a failure to build the request ends the stream with that error")
        func buildFailureEndsStream() async throws {
            struct Unbuildable: StorableRequest {
                typealias Response = Data
                func buildRequest(with baseURL: URL) throws -> NetworkRequest { throw MarkerError(id: 7) }
            }
            let network = makeNetwork(session: MockSession())

            await #expect(throws: MarkerError(id: 7)) {
                for try await _ in network.storedThenFresh(Unbuildable(), storage: InMemoryResponseStore()) {}
            }
        }

        @Test("cancelling the consumer cancels the network send")
        func cancellingConsumerCancelsSend() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo, delay: .seconds(10)))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada), for: Fixtures.usersKey)
            let stream = network.storedThenFresh(StorableUsersRequest(), storage: store)
            let received = Counter()

            let consumer = Task {
                for try await _ in stream { received.increment() }
            }
            try await Fixtures.wait { session.recordedRequests.count == 1 && received.count == 1 }
            consumer.cancel()

            try await Fixtures.wait { session.cancelledRequestCount == 1 }
            _ = await consumer.result
            #expect(received.count == 1)
            // The consumer's loop ends as soon as it is cancelled; the cancelled send unregisters
            // from the network a moment later, on its own task.
            try await Fixtures.wait { network.activeRequestCount == 0 }
        }
    }
}
