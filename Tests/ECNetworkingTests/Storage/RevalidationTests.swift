import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

extension StorageTests {
    @Suite("Revalidation of stored responses")
    struct Revalidation {
        typealias Fixtures = StorageFixtures

        @Test("an entry with an ETag is revalidated; a 304 serves the stored body and renews the entry")
        func notModifiedServesStoredBody() async throws {
            let session = MockSession()
            session.stub(
                with: MockResponse(statusCode: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"]))
            let network = makeNetwork(session: session)
            let answers = EventLog()
            network.add(
                action: Completed { _, response in
                    answers.append("\(response.statusCode), \(response.body.count) bytes")
                    return .proceed(response)
                })
            let store = InMemoryResponseStore()
            let original = Fixtures.stored(Fixtures.ada, age: 3600, headers: ["ETag": "\"v1\""])
            await store.store(original, for: Fixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .storedIfFresh)

            #expect(result == StoredValue(value: Fixtures.ada, source: .network))
            #expect(answers.all == ["304, 0 bytes"])
            let recorded = try #require(session.recordedRequests.first)
            #expect(recorded.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
            #expect(recorded.value(forHTTPHeaderField: "If-Modified-Since") == nil)
            let renewed = try #require(await store.storedResponse(for: Fixtures.usersKey))
            #expect(renewed.statusCode == 200)
            #expect(renewed.body == original.body)
            #expect(renewed.age() < .seconds(5))
            #expect(renewed.headers["cache-control"] == "max-age=60")
            #expect(renewed.headers["Content-Type"] == "application/json")
        }

        @Test("an entry with Last-Modified sends If-Modified-Since")
        func lastModifiedSendsIfModifiedSince() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 304))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            let date = "Wed, 21 Oct 2015 07:28:00 GMT"
            await store.store(Fixtures.stored(Fixtures.ada, headers: ["last-modified": date]), for: Fixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)

            #expect(result.value == Fixtures.ada)
            #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "If-Modified-Since") == date)
        }

        @Test("a 200 to a conditional request replaces the entry")
        func changedResourceReplacesEntry() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo, headers: ["ETag": "\"v2\""]))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada, headers: ["ETag": "\"v1\""]), for: Fixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)

            #expect(result == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
            let replaced = try #require(await store.storedResponse(for: Fixtures.usersKey))
            #expect(replaced.etag == "\"v2\"")
            #expect(Fixtures.users(in: replaced) == Fixtures.bo)
        }

        @Test("an entry without validators is not revalidated, and a 304 to it is unacceptable")
        func noValidatorsNoConditionalRequest() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 304))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            await store.store(Fixtures.stored(Fixtures.ada), for: Fixtures.usersKey)

            await #expect {
                _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)
            } throws: { error in
                (error as? NetworkError)?.statusCode == 304
            }
            #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "If-None-Match") == nil)
        }

        @Test("a 304 confirming a body that no longer decodes drops it and asks again without conditions")
        func notModifiedWithUndecodableBodyRefetches() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo, headers: ["ETag": "\"v2\""]))
            session.stub(.header(name: "If-None-Match"), with: MockResponse(statusCode: 304))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            let legacy = StoredResponse(statusCode: 200, headers: ["ETag": "\"v1\""], body: Data("{}".utf8))
            await store.store(legacy, for: Fixtures.usersKey)

            let result = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)

            #expect(result == StoredValue(value: Fixtures.bo, source: .network))
            #expect(session.recordedRequests.count == 2)
            #expect(session.recordedRequests.last?.value(forHTTPHeaderField: "If-None-Match") == nil)
            #expect(await store.storedResponse(for: Fixtures.usersKey)?.etag == "\"v2\"")
        }

        @Test("a request with validators of its own is not made conditional on the stored entry")
        func ownValidatorsAreLeftAlone() async throws {
            struct OwnValidator: StorableRequest {
                typealias Response = [User]
                func buildRequest(with baseURL: URL) -> NetworkRequest {
                    var request = NetworkRequest(method: .get, url: baseURL.appendingPathComponent("users"))
                    request.headers["If-None-Match"] = "\"mine\""
                    return request
                }
            }
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 304))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()
            let stored = Fixtures.stored(Fixtures.ada, headers: ["ETag": "\"v1\"", "Last-Modified": "yesterday"])
            await store.store(stored, for: Fixtures.usersKey)

            await #expect {
                _ = try await network.send(OwnValidator(), storage: store, policy: .networkOnly)
            } throws: { error in
                (error as? NetworkError)?.statusCode == 304
            }
            let recorded = try #require(session.recordedRequests.first)
            #expect(recorded.value(forHTTPHeaderField: "If-None-Match") == "\"mine\"")
            #expect(recorded.value(forHTTPHeaderField: "If-Modified-Since") == nil)
        }

        @Test("Set-Cookie is never stored")
        func setCookieIsNotStored() async throws {
            let session = MockSession()
            session.stub(with: MockResponse(json: Fixtures.bo, headers: ["Set-Cookie": "session=secret"]))
            let network = makeNetwork(session: session)
            let store = InMemoryResponseStore()

            _ = try await network.send(StorableUsersRequest(), storage: store, policy: .networkOnly)

            let stored = try #require(await store.storedResponse(for: Fixtures.usersKey))
            #expect(!stored.headers.contains(name: "set-cookie"))
        }
    }
}
