import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A storage send is one send from its start: `invalidate()`, `cancelAll` and
/// `finishSendsAndInvalidate()` reach it while it reads its store, as they reach it on the wire,
/// and the activity count counts it once. Each test fails on a network that registered a storage
/// send only while it asked the network.
@Suite("Storage sends are sends from their start", .timeLimit(.minutes(2)))
struct StorageSendLifecycleTests {
    private struct Listed: StorableRequest {
        typealias Response = Data
        let url: URL
        func buildRequest(with baseURL: URL) -> NetworkRequest { NetworkRequest(url: url) }
    }

    private struct Other: Request {
        typealias Response = Data
        let url: URL
        func buildRequest(with baseURL: URL) -> NetworkRequest { NetworkRequest(url: url) }
    }

    /// A store whose reads wait until ``open()``, then find nothing.
    private final class GatedStore: ResponseStore, Sendable {
        let reads = Counter()
        private let isOpen = Counter()

        func open() { _ = isOpen.increment() }

        func storedResponse(for key: String) async -> StoredResponse? {
            _ = reads.increment()
            while isOpen.count == 0 { try? await Task.sleep(for: .milliseconds(2)) }
            return nil
        }
        func store(_ response: StoredResponse, for key: String) async {}
        func removeResponse(for key: String) async {}
        func removeAll() async {}
    }

    private static let okBody = Data(#"{"ok":true}"#.utf8)

    /// What a test sees once its storage send is reading the store: the network, its server, the
    /// store (closed until ``GatedStore/open()``), the request, and the task that sends it.
    private struct ReadingTheStore<Value: Sendable> {
        let network: URLSessionNetwork
        let server: MatrixServer
        let store: GatedStore
        let request: Listed
        let send: Task<Value, any Error>
    }

    /// Starts `send` (a storage send of a request for `route`) over a network of `kind`, and runs
    /// `body` once it is reading the store.
    private static func whileReadingTheStore<Value: Sendable>(
        over kind: TransportKind,
        route: String = "ok",
        sending send: @escaping @Sendable (URLSessionNetwork, Listed, GatedStore) async throws -> Value,
        _ body: (ReadingTheStore<Value>) async throws -> Void
    ) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let store = GatedStore()
        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            let request = Listed(url: server.server.baseURL.appendingPathComponent(route))
            let task = Task { try await send(network, request, store) }
            try await waitUntil { store.reads.count == 1 }
            try await body(
                ReadingTheStore(network: network, server: server, store: store, request: request, send: task))
        }
    }

    /// A storage send of `request` that answers from `store` when its entry is fresh.
    private static func storageSend(_ network: URLSessionNetwork, _ request: Listed, _ store: GatedStore)
        async throws -> StoredValue<Data>
    {
        try await network.send(request, storage: store, policy: .storedIfFresh)
    }

    /// Returns once `network` refuses new sends, as `finishSendsAndInvalidate()` makes it do at once.
    private static func waitUntilClosed(_ network: any Network, url: URL) async throws {
        let deadline = ContinuousClock.now + promptBound
        while !isError(.invalidated, await result { try await network.send(Other(url: url)) }) {
            try #require(ContinuousClock.now < deadline, "the network still took new sends")
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// What `body` returned or threw.
    private static func result<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    /// Whether `result` is a failure with `expected`, one of the errors without an associated value.
    private static func isError<Value>(_ expected: NetworkError, _ result: Result<Value, any Error>) -> Bool {
        guard case .failure(let error as NetworkError) = result else { return false }
        switch (expected, error) {
        case (.cancelled, .cancelled), (.invalidated, .invalidated): return true
        default: return false
        }
    }

    @Test(
        "invalidate() while a storage send reads its store ends it with cancelled, and it sends nothing",
        arguments: TransportKind.allCases)
    func invalidateWhileReadingTheStore(kind: TransportKind) async throws {
        try await Self.whileReadingTheStore(over: kind, sending: Self.storageSend) { reading in
            #expect(reading.network.activeRequestCount == 1)
            reading.network.invalidate()
            reading.store.open()
            #expect(Self.isError(.cancelled, await reading.send.result))
            #expect(reading.server.server.requests.count == 0)
            // Later storage sends are refused, as every send is.
            let later = await Self.result {
                try await Self.storageSend(reading.network, reading.request, reading.store)
            }
            #expect(Self.isError(.invalidated, later))
        }
    }

    @Test(
        "cancelAll(of:) reaches a storage send reading its store, and neither its caller nor a send of another type",
        arguments: TransportKind.allCases)
    func cancelAllOfItsTypeWhileReadingTheStore(kind: TransportKind) async throws {
        try await Self.whileReadingTheStore(
            over: kind,
            sending: { network, request, store in
                (await Self.result { try await Self.storageSend(network, request, store) }, Task.isCancelled)
            }
        ) { reading in
            reading.network.cancelAll(of: Other.self)
            reading.network.cancelAll(of: Listed.self)
            reading.store.open()
            let (result, callerCancelled) = try await reading.send.value
            #expect(Self.isError(.cancelled, result))
            #expect(!callerCancelled)
            #expect(reading.server.server.requests.count == 0)
            // The network goes on: the next storage send asks the server.
            let next = try await Self.storageSend(reading.network, reading.request, reading.store)
            #expect(next.value == Self.okBody)
        }
    }

    @Test(
        "finishSendsAndInvalidate() waits for a storage send reading its store, which finishes with the network's answer",
        arguments: TransportKind.allCases)
    func finishWhileReadingTheStore(kind: TransportKind) async throws {
        try await Self.whileReadingTheStore(over: kind, sending: Self.storageSend) { reading in
            let finished = Counter()
            let finishing = Task {
                await reading.network.finishSendsAndInvalidate()
                _ = finished.increment()
            }
            // It must still be waiting once the network is closed to new sends.
            try await Self.waitUntilClosed(reading.network, url: reading.request.url)
            try await Task.sleep(for: .milliseconds(200))
            #expect(finished.count == 0, "finishSendsAndInvalidate() returned while a storage send was in progress")
            reading.store.open()
            #expect(try await reading.send.value.value == Self.okBody)
            await finishing.value
        }
    }

    @Test(
        "finishSendsAndInvalidate() while storedThenFresh reads its store lets the fresh value come",
        arguments: TransportKind.allCases)
    func storedThenFreshFinishes(kind: TransportKind) async throws {
        try await Self.whileReadingTheStore(
            over: kind,
            sending: { network, request, store in
                var values: [Data] = []
                for try await value in network.storedThenFresh(request, storage: store) { values.append(value.value) }
                return values
            }
        ) { reading in
            let finishing = Task { await reading.network.finishSendsAndInvalidate() }
            try await Self.waitUntilClosed(reading.network, url: reading.request.url)
            reading.store.open()
            #expect(try await reading.send.value == [Self.okBody])
            await finishing.value
        }
    }

    @Test(
        "a storage send counts once in activeRequestCount, reading its store and on the wire",
        arguments: TransportKind.allCases)
    func countedOnce(kind: TransportKind) async throws {
        try await Self.whileReadingTheStore(over: kind, route: "gated", sending: Self.storageSend) { reading in
            #expect(reading.network.activeRequestCount == 1)
            reading.store.open()
            try await waitUntil { reading.server.server.requests.count == 1 }
            #expect(reading.network.activeRequestCount == 1)
            reading.server.openGate()
            #expect(try await reading.send.value.value == Self.okBody)
            try await waitUntil { reading.network.activeRequestCount == 0 }
        }
    }

    @Test(
        "the fake network's storage send is a send from its start too: invalidate() while it reads its store cancels it"
    )
    func fakeNetworkInvalidateWhileReadingTheStore() async throws {
        let fake = FakeNetwork()
        fake.stub(Listed.self, with: Self.okBody)
        let store = GatedStore()
        let request = Listed(url: URL(string: "https://api.example.com/ok")!)
        let sender = Task { try await fake.send(request, storage: store, policy: .storedIfFresh) }
        try await waitUntil { store.reads.count == 1 }
        #expect(fake.activeRequestCount == 1)
        fake.invalidate()
        store.open()
        #expect(Self.isError(.cancelled, await sender.result))
        #expect(fake.sentRequests(of: Listed.self).isEmpty)
    }
}
