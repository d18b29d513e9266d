import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Storage end to end", .timeLimit(.minutes(1)))
struct StorageEndToEndTests {
    @Test("two sends within the maximum age reach the server once; the second comes from the store")
    func storedIfFreshSavesTheSecondHit() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let store = InMemoryResponseStore()
            let request = CatalogRequest(maximumStorageAge: .seconds(60))

            let first = try await client.network.send(request, storage: store, policy: .storedIfFresh)
            let second = try await client.network.send(request, storage: store, policy: .storedIfFresh)

            let hits = await server.recorder.catalogHits
            report("storedIfFresh twice within the maximum age: \(hits) server hit(s), second from \(second.source)")
            #expect(first.source == .network)
            #expect(first.value == Product.seed)
            #expect(second.source == .store)
            #expect(second.value == first.value)
            #expect(hits == 1)
            #expect(await server.recorder.requests(path: "/catalog").count == 1)
        }
    }

    @Test("a stale entry is revalidated with If-None-Match: a 304 keeps the stored body, a change brings a 200")
    func revalidation() async throws {
        try await withDemoServer { server in
            let events = StageEventLog()
            let client = makeClient(for: server, events: events)
            let store = InMemoryResponseStore()
            // A maximum age of zero makes every stored entry stale, so each send asks the server.
            let request = CatalogRequest(maximumStorageAge: .zero)
            let firstTag = await server.catalogETag

            let first = try await client.network.send(request, storage: store, policy: .storedIfFresh)
            let confirmed = try await client.network.send(request, storage: store, policy: .storedIfFresh)
            let notModifiedAfterConfirmation = await server.recorder.catalogNotModifiedCount
            let secondTag = await server.bumpCatalog()
            let changed = try await client.network.send(request, storage: store, policy: .networkOnly)
            let confirmedAgain = try await client.network.send(request, storage: store, policy: .networkOnly)

            let recorded = await server.recorder.requests(path: "/catalog")
            let hits = await server.recorder.catalogHits
            let notModified = await server.recorder.catalogNotModifiedCount
            let statuses = events.events(path: "/catalog").filter { $0.stage == .completed }.compactMap(\.statusCode)
            report("revalidation: \(hits) server hits, \(notModified) answered 304 Not Modified; statuses \(statuses)")
            #expect(statuses == [200, 304, 200, 304])
            #expect(first.source == .network)
            // A 304 is the network's answer, decoded from the stored body it confirmed.
            #expect(confirmed.source == .network)
            #expect(confirmed.value == first.value)
            #expect(notModifiedAfterConfirmation == 1)
            #expect(changed.value.count == Product.seed.count + 1)
            #expect(confirmedAgain.value == changed.value)
            #expect(hits == 4)
            #expect(notModified == 2)
            // What went over the wire: no condition at first, then the tag of the entry stored at the time,
            // which the 200 after the change replaced.
            #expect(recorded.map { $0.headers["If-None-Match"] } == [nil, firstTag, firstTag, secondTag])
            #expect(recorded.dropFirst().allSatisfy { $0.headers["If-Modified-Since"] != nil })
        }
    }

    @Test("networkFallingBackToStored serves the stored value when the server has stopped")
    func fallbackWhenOffline() async throws {
        try await withDemoServer { server in
            // Without the retry policy: retrying a refused connection only slows the fallback down.
            let client = makeClient(for: server) { $0.retryPolicy = nil }
            let store = InMemoryResponseStore()
            let request = CatalogRequest()
            let online = try await client.network.send(request, storage: store, policy: .networkFallingBackToStored)
            await server.stop()

            let offline = try await client.network.send(request, storage: store, policy: .networkFallingBackToStored)

            let hits = await server.recorder.catalogHits
            let age = format(offline.age)
            report("offline fallback: \(hits) server hit(s) before the stop, then the store (age \(age))")
            #expect(online.source == .network)
            #expect(offline.source == .store)
            #expect(offline.value == online.value)
            #expect(hits == 1)
        }
    }

    @Test("storedThenFresh with the server up yields the stored value, then the network's 304-confirmed one")
    func storedThenFreshOnline() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let store = InMemoryResponseStore()
            let request = CatalogRequest()
            let primed = try await client.network.send(request, storage: store, policy: .networkOnly)

            var values: [StoredValue<[Product]>] = []
            for try await value in client.network.storedThenFresh(request, storage: store) {
                values.append(value)
            }

            let hits = await server.recorder.catalogHits
            let notModified = await server.recorder.catalogNotModifiedCount
            let sources = values.map { "\($0.source)" }
            report("storedThenFresh online: \(sources), \(hits) server hits, \(notModified) of them 304")
            #expect(values.map(\.source) == [.store, .network])
            #expect(values.allSatisfy { $0.value == primed.value })
            #expect(hits == 2)
            #expect(notModified == 1)
        }
    }

    @Test("storedThenFresh with the server stopped yields the stored value, then finishes with a transport error")
    func storedThenFreshOffline() async throws {
        try await withDemoServer { server in
            // Without the retry policy, so that the stream ends with the transport error itself.
            let client = makeClient(for: server) { $0.retryPolicy = nil }
            let store = InMemoryResponseStore()
            let request = CatalogRequest()
            let primed = try await client.network.send(request, storage: store, policy: .networkOnly)
            await server.stop()

            var values: [StoredValue<[Product]>] = []
            var failure: (any Error)?
            do {
                for try await value in client.network.storedThenFresh(request, storage: store) {
                    values.append(value)
                }
            } catch {
                failure = error
            }

            #expect(values.map(\.source) == [.store])
            #expect(values.first?.value == primed.value)
            guard case .transport(let urlError)? = failure as? NetworkError else {
                Issue.record("expected a transport error after the stored value, got \(String(describing: failure))")
                return
            }
            report("storedThenFresh offline: \(values.map { "\($0.source)" }), then URLError \(urlError.code.rawValue)")
        }
    }

    @Test("a DiskResponseStore keeps the catalog for a new client after the server has stopped")
    func diskStoreAcrossClients() async throws {
        try await withTemporaryDirectory { directory in
            try await withDemoServer { server in
                let online = try await sendThroughNewClient(
                    to: server.baseURL, directory: directory, policy: .networkFallingBackToStored)
                await server.stop()

                // A new store over the directory, as after a relaunch: the first store and its network are
                // gone, so the entry can only come from the file.
                let reopened = try DiskResponseStore(directory: directory)
                let entries = reopened.count
                let offline = try await sendThroughNewClient(
                    to: server.baseURL, directory: directory, policy: .networkFallingBackToStored)

                let hits = await server.recorder.catalogHits
                report("disk store: \(hits) server hit(s), \(entries) entry on disk, then served from the store")
                #expect(online.source == .network)
                #expect(entries == 1)
                #expect(offline.source == .store)
                #expect(offline.value == online.value)
                #expect(hits == 1)
            }
        }
    }

    /// Sends the catalog request through a client and a ``DiskResponseStore`` made for this send
    /// alone, both released on return, the way a process that sends once and exits would.
    private func sendThroughNewClient(
        to baseURL: URL,
        directory: URL,
        policy: StoragePolicy
    ) async throws -> StoredValue<[Product]> {
        let client = DemoClient(baseURL: baseURL, logSink: .discard, configure: { $0.retryPolicy = nil })
        let store = try DiskResponseStore(directory: directory)
        return try await client.network.send(CatalogRequest(), storage: store, policy: policy)
    }
}
