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
        let server = try MatrixServer()
        defer { server.stop() }
        let store = GatedStore()
        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            let request = Listed(url: server.server.baseURL.appendingPathComponent("ok"))
            let sender = Task { try await network.send(request, storage: store, policy: .storedIfFresh) }
            try await waitUntil { store.reads.count == 1 }
            #expect(network.activeRequestCount == 1)
            network.invalidate()
            store.open()
            #expect(Self.isError(.cancelled, await sender.result))
            #expect(server.server.requests.count == 0)
            // Later storage sends are refused, as every send is.
            #expect(
                Self.isError(
                    .invalidated,
                    await Self.result { try await network.send(request, storage: store, policy: .storedIfFresh) }))
        }
    }

    @Test(
        "cancelAll(of:) reaches a storage send reading its store, and neither its caller nor a send of another type",
        arguments: TransportKind.allCases)
    func cancelAllOfItsTypeWhileReadingTheStore(kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let store = GatedStore()
        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            let request = Listed(url: server.server.baseURL.appendingPathComponent("ok"))
            let sender = Task { () -> (Result<StoredValue<Data>, any Error>, Bool) in
                let result = await Self.result {
                    try await network.send(request, storage: store, policy: .storedIfFresh)
                }
                return (result, Task.isCancelled)
            }
            try await waitUntil { store.reads.count == 1 }
            network.cancelAll(of: Other.self)
            network.cancelAll(of: Listed.self)
            store.open()
            let (result, callerCancelled) = await sender.value
            #expect(Self.isError(.cancelled, result))
            #expect(!callerCancelled)
            #expect(server.server.requests.count == 0)
            // The network goes on: the next storage send asks the server.
            let next = try await network.send(request, storage: store, policy: .storedIfFresh)
            #expect(next.value == Self.okBody)
        }
    }

    @Test(
        "finishSendsAndInvalidate() waits for a storage send reading its store, which finishes with the network's answer",
        arguments: TransportKind.allCases)
    func finishWhileReadingTheStore(kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let store = GatedStore()
        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            let request = Listed(url: server.server.baseURL.appendingPathComponent("ok"))
            let sender = Task { try await network.send(request, storage: store, policy: .storedIfFresh) }
            try await waitUntil { store.reads.count == 1 }
            let finished = Counter()
            let finishing = Task {
                await network.finishSendsAndInvalidate()
                _ = finished.increment()
            }
            // It must still be waiting once the network is closed to new sends.
            try await Self.waitUntilClosed(network, url: request.url)
            try await Task.sleep(for: .milliseconds(200))
            #expect(finished.count == 0, "finishSendsAndInvalidate() returned while a storage send was in progress")
            store.open()
            #expect(try await sender.value.value == Self.okBody)
            await finishing.value
        }
    }

    @Test(
        "finishSendsAndInvalidate() while storedThenFresh reads its store lets the fresh value come",
        arguments: TransportKind.allCases)
    func storedThenFreshFinishes(kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let store = GatedStore()
        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            let request = Listed(url: server.server.baseURL.appendingPathComponent("ok"))
            let reader = Task { () -> [Data] in
                var values: [Data] = []
                for try await value in network.storedThenFresh(request, storage: store) { values.append(value.value) }
                return values
            }
            try await waitUntil { store.reads.count == 1 }
            let finishing = Task { await network.finishSendsAndInvalidate() }
            try await Self.waitUntilClosed(network, url: request.url)
            store.open()
            #expect(try await reader.value == [Self.okBody])
            await finishing.value
        }
    }

    @Test(
        "a storage send counts once in activeRequestCount, reading its store and on the wire",
        arguments: TransportKind.allCases)
    func countedOnce(kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let store = GatedStore()
        try await kind.withNetwork(baseURL: server.server.baseURL) { network in
            let request = Listed(url: server.server.baseURL.appendingPathComponent("gated"))
            let sender = Task { try await network.send(request, storage: store, policy: .storedIfFresh) }
            try await waitUntil { store.reads.count == 1 }
            #expect(network.activeRequestCount == 1)
            store.open()
            try await waitUntil { server.server.requests.count == 1 }
            #expect(network.activeRequestCount == 1)
            server.openGate()
            #expect(try await sender.value.value == Self.okBody)
            try await waitUntil { network.activeRequestCount == 0 }
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
