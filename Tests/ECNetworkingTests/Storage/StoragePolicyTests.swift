import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

extension StorageTests {
    @Suite("Storage policies")
    struct Policies {
        typealias Fixtures = StorageFixtures

        @Test("networkOnly asks the network even with a fresh entry, and stores the answer")
        func networkOnlyAlwaysAsks() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada), for: Fixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)

            #expect(result == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 1)
            let stored = try #require(await store.storedResponse(for: Fixtures.usersKey))
            #expect(Fixtures.users(in: stored) == Fixtures.bo)
            #expect(stored.headers["content-type"] == "application/json")
        }

        @Test("storedIfFresh answers from a fresh entry without a network call, and logs one line")
        func storedIfFreshServesFreshEntry() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo))
            let log = StorageLogLines()
            let network = makeNetwork(session: session) {
                $0.logging = true
                $0.logSink = log.sink
            }
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada, age: 30), for: Fixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(result.value == Fixtures.ada)
            #expect(result.source == .store)
            #expect(result.age >= .seconds(30) && result.age < .seconds(40))
            #expect(session.recordedRequests.isEmpty)
            #expect(log.all.count == 1)
            #expect(log.all.first?.hasPrefix("<-- stored GET https://api.example.com/v1/users (age 30 s") == true)
        }

        @Test("storedIfFresh asks the network when the entry is older than the request's maximum age")
        func storedIfFreshRefetchesStaleEntry() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada, age: 120), for: Fixtures.usersKey)

            let request = StorableUsersRequest(maximumStorageAge: .seconds(60))
            let result = try await network.send(request, storage: store, policy: .storedIfFresh)

            #expect(result == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 1)
            let stored = try #require(await store.storedResponse(for: Fixtures.usersKey))
            #expect(Fixtures.users(in: stored) == Fixtures.bo)
            #expect(stored.age() < .seconds(5))
        }

        @Test("storedIfFresh with nothing stored asks the network and throws its failure")
        func storedIfFreshThrowsNetworkFailure() async throws {
            let session = MockSession()
            session.stub(with: .failure(.notConnectedToInternet))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada, age: 600), for: Fixtures.usersKey)

            await #expect {
                _ = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
            } throws: { error in
                guard case .transport(let urlError)? = error as? NetworkError else { return false }
                return urlError.code == .notConnectedToInternet
            }
        }

        @Test(
            "networkFallingBackToStored serves any-age stored value on a transport error, a timeout or a 5xx",
            arguments: ["transport", "timeout", "503", "retries exhausted"]
        )
        func fallbackServesStoredValue(failure: String) async throws {
            let session = MockSession()
            switch failure {
            case "transport": session.stub(with: .failure(.networkConnectionLost))
            case "timeout": session.stub(with: MockResponse(json: Fixtures.bo, delay: .seconds(5)))
            default: session.stub(with: MockResponse(statusCode: 503))
            }
            let log = StorageLogLines()
            let network = makeNetwork(session: session) {
                $0.timeout = .milliseconds(50)
                $0.logging = true
                $0.logSink = log.sink
                if failure == "retries exhausted" {
                    $0.retryPolicy = RetryPolicy(maximumAttempts: 2, baseDelay: .milliseconds(1), jitter: 0)
                }
            }
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada, age: 86_400), for: Fixtures.usersKey)

            let result = try await network.send(
                StorableUsersRequest(), storage: store, policy: .networkFallingBackToStored)

            #expect(result.value == Fixtures.ada)
            #expect(result.source == .store)
            #expect(result.age >= .seconds(86_400))
            #expect(session.recordedRequests.count == (failure == "retries exhausted" ? 2 : 1))
            #expect(log.all.last?.hasPrefix("<-- stored GET https://api.example.com/v1/users") == true)
        }

        @Test("networkFallingBackToStored throws a 4xx, and a failure when nothing is stored")
        func fallbackThrowsOtherFailures() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 404))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada), for: Fixtures.usersKey)

            await #expect {
                _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkFallingBackToStored)
            } throws: { error in
                (error as? NetworkError)?.statusCode == 404
            }

            session.stub(with: .failure(.cannotConnectToHost))
            await store.removeAll()
            await #expect {
                _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkFallingBackToStored)
            } throws: { error in
                guard case .transport(let urlError)? = error as? NetworkError else { return false }
                return urlError.code == .cannotConnectToHost
            }
        }

        @Test("networkFallingBackToStored returns and stores the network's answer when it succeeds")
        func fallbackPrefersNetwork() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada), for: Fixtures.usersKey)

            let result = try await network.send(
                StorableUsersRequest(), storage: store, policy: .networkFallingBackToStored)

            #expect(result == StoredValue(value: Fixtures.bo, source: .network))
            #expect(Fixtures.users(in: await store.storedResponse(for: Fixtures.usersKey)) == Fixtures.bo)
        }

        @Test("the network send runs the action stages, so authentication applies")
        func sendRunsActions() async throws {
            let session = MockSession()
            session.stub(.header(name: "Authorization", value: "Bearer t"), with: MockResponse(json: Fixtures.bo))
            let network = makeNetwork(session: session)
            network.add(
                action: WillBegin { request in
                    var request = request
                    request.headers["Authorization"] = "Bearer t"
                    return request
                })
            let store = InMemoryResponseStore()

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(result.value == Fixtures.bo)
            #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        }

        @Test("a stored body that no longer decodes is dropped and fetched again")
        func undecodableEntryIsReplaced() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            let legacy = StoredResponse(statusCode: 200, body: Data(#"{"legacy":true}"#.utf8))
            await store.store(legacy, for: Fixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(result == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 1)
            #expect(Fixtures.users(in: await store.storedResponse(for: Fixtures.usersKey)) == Fixtures.bo)
        }

        @Test("only 2xx answers are stored, even when the request accepts others")
        func onlySuccessIsStored() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 404, data: Data("missing".utf8)))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()

            let result = try await network.send(StorableStatusRequest(), storage: store, policy: .networkOnly)

            #expect(result.value == Data("missing".utf8))
            #expect(store.count == 0)
        }

        @Test("the default key is method, URL with query and Accept, including the default headers")
        func defaultStorageKey() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo))
            let network = makeNetwork(session: session) { $0.defaultHeaders["Accept"] = "application/json" }
            let store = InMemoryResponseStore()

            _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)

            let key = Fixtures.usersKey + " Accept: application/json"
            #expect(await store.storedResponse(for: key) != nil)
            var request = NetworkRequest(method: .get, url: testBaseURL.appendingPathComponent("users"))
            request.queryItems = [URLQueryItem(name: "page", value: "2")]
            #expect(StorableUsersRequest().storageKey(for: request) == Fixtures.usersKey + "?page=2")
        }

        @Test("a send from the store reports no metrics; a network send reports one")
        func metricsOnlyForNetworkSends() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo))
            let metrics = Counter()
            let network = makeNetwork(session: session) { $0.metricsHandler = { _ in metrics.increment() } }
            let store = InMemoryResponseStore()

            _ = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
            let second = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(second.source == .store)
            #expect(metrics.count == 1)
        }
    }
}
