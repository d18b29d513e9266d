import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A will-begin action that signs requests as whoever is signed in, with that user's partition.
/// `claimed` and `signed` differ only to act out a sign-in that happens between the store being
/// read and the request going out.
final class SignedInUser: StoragePartitioningAction, @unchecked Sendable {
    // Safe because `claimed` and `signed` are only touched while `lock` is held.
    private let lock = NSLock()
    private var claimed: String
    private var signed: String

    init(_ user: String) {
        claimed = user
        signed = user
    }

    /// Signs in `user`, or, with `onlyOnTheWire`, makes requests go out as `user` while the store
    /// is still read as the previous one.
    func signIn(_ user: String, onlyOnTheWire: Bool = false) {
        lock.withLock {
            signed = user
            if !onlyOnTheWire { claimed = user }
        }
    }

    func storageIdentity(for request: NetworkRequest) async -> StorageIdentity {
        .credential(partition: StoragePartition(lock.withLock { claimed }))
    }

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        let user = lock.withLock { signed }
        var request = request
        request.headers["Authorization"] = "Bearer token-of-\(user)"
        request.customProperties[StoragePartition.self] = StoragePartition(user)
        return request
    }
}

/// `GET /users` with an `Accept-Language`, for `Vary`.
struct LocalizedUsersRequest: StorableRequest {
    typealias Response = [User]
    var language: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(headers: ["Accept-Language": language], url: baseURL.appendingPathComponent("users"))
    }
}

extension StorageTests {
    @Suite("Storage partitions and Cache-Control")
    struct Partitions {
        typealias Fixtures = StorageFixtures

        /// A body only Ada may ever see.
        static let adaSecret = [User(id: 1, name: "ADA-PRIVATE-PLANTED")]
        static let adaAuthorization = "Bearer token-of-ada"
        static let boAuthorization = "Bearer token-of-bo"

        /// A network signed in as Ada, whose server answers Ada with her secret (ETag "v1", last
        /// modified) and Bo with `boAnswer`; Ada's answer is stored, then Bo signs in.
        static func networkAfterAdaStored(
            boAnswer: MockResponse,
            store: some ResponseStore
        ) async throws -> (URLSessionNetwork, MockSession) {
            let session = MockSession()
            session.stub(
                .header(name: "Authorization", value: adaAuthorization),
                with: MockResponse(
                    json: adaSecret,
                    headers: ["ETag": "\"v1\"", "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT"]))
            session.stub(.header(name: "Authorization", value: boAuthorization), with: boAnswer)
            let network = makeNetwork(session: session)
            let user = SignedInUser("ada")
            network.add(action: user)
            let ada = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)
            #expect(ada.value == adaSecret)
            user.signIn("bo")
            return (network, session)
        }

        /// Checks that nothing Bo sent carried Ada's validators.
        static func expectNoValidators(in session: MockSession) {
            for request in session.recordedRequests
            where request.value(forHTTPHeaderField: "Authorization") == boAuthorization {
                #expect(request.value(forHTTPHeaderField: "If-None-Match") == nil)
                #expect(request.value(forHTTPHeaderField: "If-Modified-Since") == nil)
            }
        }

        @Test("storedIfFresh never answers one user with another's fresh entry, nor revalidates it")
        func storedIfFreshKeepsUsersApart() async throws {
            let store = InMemoryResponseStore()
            let (network, session) = try await Self.networkAfterAdaStored(
                boAnswer: MockResponse(json: Fixtures.bo), store: store)

            let bo = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(bo == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 2)
            Self.expectNoValidators(in: session)
            #expect(store.count == 2)
        }

        @Test("networkFallingBackToStored never serves another user's entry when the network fails")
        func fallbackKeepsUsersApart() async throws {
            let store = InMemoryResponseStore()
            let (network, session) = try await Self.networkAfterAdaStored(
                boAnswer: .failure(.notConnectedToInternet), store: store)

            await #expect {
                _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkFallingBackToStored)
            } throws: { error in
                guard case .transport? = error as? NetworkError else { return false }
                return true
            }
            Self.expectNoValidators(in: session)
        }

        @Test("storedThenFresh shows a user nothing of another's entry")
        func storedThenFreshKeepsUsersApart() async throws {
            let store = InMemoryResponseStore()
            let (network, session) = try await Self.networkAfterAdaStored(
                boAnswer: MockResponse(json: Fixtures.bo), store: store)

            var values: [StoredValue<[User]>] = []
            for try await value in network.storedThenFresh(StorableUsersRequest(), storage: store) {
                values.append(value)
            }

            #expect(values == [StoredValue(value: Fixtures.bo, source: .network)])
            Self.expectNoValidators(in: session)
        }

        @Test("a 304 to one user never yields another user's stored body")
        func notModifiedNeverYieldsAnotherUsersBody() async throws {
            let store = InMemoryResponseStore()
            let (network, session) = try await Self.networkAfterAdaStored(
                boAnswer: MockResponse(statusCode: 304, headers: ["ETag": "\"v1\""]), store: store)

            await #expect {
                _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)
            } throws: { error in
                guard case .unacceptableStatusCode(let response)? = error as? NetworkError else { return false }
                return response.statusCode == 304
            }
            Self.expectNoValidators(in: session)
        }

        @Test("a request whose user changed after the store was read carries none of the old user's validators")
        func identityChangeBeforeSendingDropsValidators() async throws {
            let session = MockSession()
            session.stub(
                .header(name: "Authorization", value: Self.boAuthorization), with: MockResponse(json: Fixtures.bo))
            session.stub(
                .header(name: "Authorization", value: Self.boAuthorization) && .header(name: "If-None-Match"),
                with: MockResponse(statusCode: 304))
            let network = makeNetwork(session: session)
            let user = SignedInUser("ada")
            network.add(action: user)
            let store = InMemoryResponseStore()
            let adaKey = StoragePartition("ada").key(Fixtures.usersKey)
            await store.store(Fixtures.stored(Self.adaSecret, age: 3600, headers: ["ETag": "\"v1\""]), for: adaKey)
            user.signIn("bo", onlyOnTheWire: true)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(result == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 1)
            Self.expectNoValidators(in: session)
            // Bo's answer went out under another identity than the one read, so it is stored nowhere.
            #expect(Fixtures.users(in: await store.storedResponse(for: adaKey)) == Self.adaSecret)
            #expect(store.count == 1)
        }

        @Test("removeAll(in:) removes exactly one partition's entries", arguments: ["memory", "disk"])
        func removeAllInPartition(kind: String) async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store: any ResponseStore =
                kind == "memory" ? InMemoryResponseStore() : try DiskResponseStore(directory: directory)
            let ada = StoragePartition("ada")
            let bo = StoragePartition("bo")
            for key in ["a", "b"] {
                await store.store(Fixtures.response(key: key), for: ada.key(key))
                await store.store(Fixtures.response(key: key), for: bo.key(key))
                await store.store(Fixtures.response(key: key), for: key)
            }

            await store.removeAll(in: ada)

            for key in ["a", "b"] {
                #expect(await store.storedResponse(for: ada.key(key)) == nil)
                #expect(await store.storedResponse(for: bo.key(key)) == Fixtures.response(key: key))
                #expect(await store.storedResponse(for: key) == Fixtures.response(key: key))
            }
            #expect(ada.contains(key: ada.key("a")) && !ada.contains(key: bo.key("a")) && !ada.contains(key: "a"))
        }

        @Test("a store that cannot list its keys empties itself on removeAll(in:)")
        func defaultRemoveAllInPartitionRemovesEverything() async {
            let store = KeyedOnlyStore()
            await store.store(Fixtures.response(key: "a"), for: "a")
            await store.removeAll(in: StoragePartition("ada"))
            #expect(await store.storedResponse(for: "a") == nil)
        }

        @Test("a request that gets a credential but no partition is neither answered from nor written to the store")
        func credentialWithoutPartitionBypassesStore() async throws {
            let (network, session) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.bo))
            network.add(action: AddHeader(name: "Authorization", value: "Bearer someone"))
            let store = InMemoryResponseStore()

            _ = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
            let second = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(second == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 2)
            #expect(store.count == 0)
        }

        @Test("a request built with a credential query item but no partition never reads the store")
        func credentialQueryWithoutPartitionBypassesStore() async throws {
            let (network, session) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.bo))
            let store = InMemoryResponseStore()
            let request = TokenUsersRequest(token: "PLANTED-SECRET-123")
            let key = request.storageKey(for: request.buildRequest(with: testBaseURL))
            #expect(!key.contains("PLANTED-SECRET-123"))
            await store.store(Fixtures.stored(Self.adaSecret), for: key)

            let result = try await network.send(request, storage: store, policy: .storedIfFresh)

            #expect(result == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 1)
            #expect(Fixtures.users(in: await store.storedResponse(for: key)) == Self.adaSecret)
        }

        // The default key hides `key`'s value; a network that no longer counts `key` as a
        // credential stores such requests without a partition, where the two users' values made
        // one key and Bo was answered with Ada's entry.
        @Test("a query value the network does not count as a credential keeps two users' keys apart")
        func narrowedSensitiveNamesKeepKeysApart() async throws {
            let session = MockSession()
            session.stub(.any, with: [MockResponse(json: Self.adaSecret), MockResponse(json: Fixtures.bo)])
            let network = makeNetwork(session: session) { $0.sensitiveData.queryParameters.remove("key") }
            let store = InMemoryResponseStore()

            let ada = try await network.send(
                TokenUsersRequest(token: "ADA-KEY", parameter: "key"), storage: store, policy: .storedIfFresh)
            let bo = try await network.send(
                TokenUsersRequest(token: "BO-KEY", parameter: "key"), storage: store, policy: .storedIfFresh)

            #expect(ada == StoredValue(value: Self.adaSecret, source: .network))
            #expect(bo == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 2)
            #expect(store.count == 2)
            // Each is still answered from its own entry.
            let again = try await network.send(
                TokenUsersRequest(token: "ADA-KEY", parameter: "key"), storage: store, policy: .storedIfFresh)
            #expect(again.value == Self.adaSecret)
            #expect(again.source == .store)
        }

        @Test("AuthenticatingAction stores in its authenticator's partition, and only there")
        func authenticatingActionPartitions() async throws {
            let (network, session) = makeStubbedNetwork(answering: MockResponse(json: Self.adaSecret))
            network.add(action: AuthenticatingAction(authenticator: PartitioningAuthenticator(), credential: "ada"))
            let store = InMemoryResponseStore()

            _ = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
            let again = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)
            var anonymous = StorableUsersRequest()
            anonymous.customProperties[RequiresAuthentication.self] = false
            let public_ = try await network.send(anonymous, storage: store, policy: .storedIfFresh)

            #expect(again.source == .store)
            #expect(public_.source == .network)
            #expect(session.recordedRequests.count == 2)
            let adaKey = StoragePartition("user-ada").key(Fixtures.usersKey)
            #expect(Fixtures.users(in: await store.storedResponse(for: adaKey)) == Self.adaSecret)
        }

        @Test("an authenticator that names no partition keeps its requests away from the store")
        func authenticatorWithoutPartitionBypassesStore() async throws {
            let (network, session) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.bo))
            network.add(action: AuthenticatingAction(authenticator: PlainAuthenticator(), credential: "ada"))
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Self.adaSecret), for: Fixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(result == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 1)
            #expect(Fixtures.users(in: await store.storedResponse(for: Fixtures.usersKey)) == Self.adaSecret)
        }

        @Test("a response that no longer says which request it answers is not stored")
        func responseWithoutRequestIsNotStored() async throws {
            let (network, _) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.bo))
            network.add(
                action: Completed { _, response in
                    .proceed(
                        NetworkResponse(
                            statusCode: response.statusCode, headers: response.headers, body: response.body,
                            url: response.url, request: nil))
                })
            let store = InMemoryResponseStore()

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)

            #expect(result.value == Fixtures.bo)
            #expect(store.count == 0)
        }

        @Test("Cache-Control: no-store is never stored, and removes the entry it would replace")
        func noStoreIsNeverStored() async throws {
            let (network, _) = makeStubbedNetwork(
                answering: MockResponse(json: Fixtures.bo, headers: ["Cache-Control": "max-age=60, No-Store"]))
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada, age: 3600), for: Fixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(result.value == Fixtures.bo)
            #expect(store.count == 0)
        }

        @Test("Cache-Control: private is stored in a partition only")
        func privateNeedsPartition() async throws {
            let (network, _) = makeStubbedNetwork(
                answering: MockResponse(json: Fixtures.bo, headers: ["Cache-Control": "private, max-age=60"]))
            let store = InMemoryResponseStore()

            _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)
            #expect(store.count == 0)

            var partitioned = StorableUsersRequest()
            partitioned.customProperties[StoragePartition.self] = "ada"
            _ = try await network.send(partitioned, storage: store, policy: .networkOnly)
            #expect(store.count == 1)
            #expect(await store.storedResponse(for: StoragePartition("ada").key(Fixtures.usersKey)) != nil)
        }

        @Test("Vary: * is never stored")
        func varyStarIsNeverStored() async throws {
            let (network, _) = makeStubbedNetwork(answering: MockResponse(json: Fixtures.bo, headers: ["Vary": "*"]))
            let store = InMemoryResponseStore()

            _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)

            #expect(store.count == 0)
        }

        @Test("in one partition, Vary: Authorization answers each user with their own entry only")
        func varyOnCredentialInOnePartition() async throws {
            let session = MockSession()
            session.stub(
                .header(name: "Authorization", value: "Bearer alice"),
                with: MockResponse(json: Fixtures.ada, headers: ["Vary": "Authorization"]))
            session.stub(
                .header(name: "Authorization", value: "Bearer bob"),
                with: MockResponse(json: Fixtures.bo, headers: ["Vary": "Authorization"]))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            /// A tenant's users share its partition, and each sends its own credential.
            struct TenantUsersRequest: StorableRequest {
                typealias Response = [User]
                let user: String
                var maximumStorageAge: Duration { .seconds(300) }
                var customProperties: CustomProperties {
                    var properties = CustomProperties()
                    properties[StoragePartition.self] = "tenant-acme"
                    return properties
                }

                func buildRequest(with baseURL: URL) -> NetworkRequest {
                    var request = NetworkRequest(url: baseURL.appendingPathComponent("users"))
                    request.headers["Authorization"] = "Bearer \(user)"
                    return request
                }
            }
            func request(as user: String) -> TenantUsersRequest { TenantUsersRequest(user: user) }

            let alice = try await network.send(request(as: "alice"), storage: store, policy: .storedIfFresh)
            let bob = try await network.send(request(as: "bob"), storage: store, policy: .storedIfFresh)
            let bobAgain = try await network.send(request(as: "bob"), storage: store, policy: .storedIfFresh)

            #expect(alice == StoredValue(value: Fixtures.ada, source: .network))
            #expect(bob == StoredValue(value: Fixtures.bo, source: .network))
            #expect(bobAgain.value == Fixtures.bo && bobAgain.source == .store)
            #expect(session.recordedRequests.count == 2)
        }

        @Test("an entry answers only requests whose Vary headers have the values it was fetched with")
        func varyMatchesRequestHeaders() async throws {
            let session = MockSession()
            session.stub(
                .header(name: "Accept-Language", value: "fr"),
                with: MockResponse(json: Fixtures.ada, headers: ["Vary": "Accept-Language, Authorization"]))
            session.stub(
                .header(name: "Accept-Language", value: "de"),
                with: MockResponse(json: Fixtures.bo, headers: ["Vary": "Accept-Language"]))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()

            let french = try await network.send(
                LocalizedUsersRequest(language: "fr"), storage: store, policy: .storedIfFresh)
            let german = try await network.send(
                LocalizedUsersRequest(language: "de"), storage: store, policy: .storedIfFresh)
            let germanAgain = try await network.send(
                LocalizedUsersRequest(language: "de"), storage: store, policy: .storedIfFresh)

            #expect(french == StoredValue(value: Fixtures.ada, source: .network))
            #expect(german == StoredValue(value: Fixtures.bo, source: .network))
            #expect(germanAgain.value == Fixtures.bo && germanAgain.source == .store)
            #expect(session.recordedRequests.count == 2)
        }
    }
}

/// `GET /users?access_token=…`: a credential in the query (or in another parameter, `parameter`).
struct TokenUsersRequest: StorableRequest {
    typealias Response = [User]
    var token: String
    /// The query parameter that carries it.
    var parameter = "access_token"

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("users"))
        request.queryItems = [URLQueryItem(name: parameter, value: token)]
        return request
    }
}

/// Signs requests with the user name as the token and names the partition after the user.
struct PartitioningAuthenticator: Authenticator {
    func apply(_ credential: String, to request: inout NetworkRequest) {
        request.headers["Authorization"] = "Bearer \(credential)"
    }

    func refresh(_ credential: String?) async throws -> String {
        credential ?? "ada"
    }

    func storagePartition(for credential: String) -> StoragePartition? {
        StoragePartition("user-\(credential)")
    }
}

/// Signs requests and names no partition, like every authenticator written before partitions.
struct PlainAuthenticator: Authenticator {
    func apply(_ credential: String, to request: inout NetworkRequest) {
        request.headers["Authorization"] = "Bearer \(credential)"
    }

    func refresh(_ credential: String?) async throws -> String {
        credential ?? "ada"
    }
}

/// A store that implements only the required methods, as a store written before partitions does.
final class KeyedOnlyStore: ResponseStore, @unchecked Sendable {
    // Safe because `entries` is only touched while `lock` is held.
    private let lock = NSLock()
    private var entries: [String: StoredResponse] = [:]

    func storedResponse(for key: String) async -> StoredResponse? { lock.withLock { entries[key] } }
    func store(_ response: StoredResponse, for key: String) async { lock.withLock { entries[key] = response } }
    func removeResponse(for key: String) async { _ = lock.withLock { entries.removeValue(forKey: key) } }
    func removeAll() async { lock.withLock { entries.removeAll() } }
}
