import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("URLSessionNetwork lifecycle: invalidate, finish and release", .serialized, .timeLimit(.minutes(2)))
struct NetworkLifecycleTests {
    /// Holds the network it authenticates, as an authenticator that logs in through the network
    /// does: the network holds the action, the action this, and this the network.
    struct CyclicAuthenticator: Authenticator {
        let network: any Network

        func apply(_ credential: String, to request: inout NetworkRequest) {
            request.headers["Authorization"] = "Bearer \(credential)"
        }

        func refresh(_ credential: String?) async throws -> String {
            "token"
        }
    }

    private static func isInvalidated(_ error: any Error) -> Bool {
        if case .invalidated? = error as? NetworkError { return true }
        return false
    }

    /// The number of file descriptors the process has open.
    private static func openFileCount() throws -> Int {
        #if canImport(Darwin)
            try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count
        #else
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        #endif
    }

    /// A network over its own transport that authenticates through an action holding it.
    private static func cyclicNetwork(baseURL: URL) -> URLSessionNetwork {
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL))
        network.add(action: AuthenticatingAction(authenticator: CyclicAuthenticator(network: network)))
        return network
    }

    @Test("150 networks that each send a real request and are invalidated close their connections and files")
    func invalidatedNetworksCloseTheirFiles() async throws {
        // Keep-alive connections stay open for as long as their session lives.
        let server = try LoopbackHTTPServer(keepsConnectionsOpen: true) { _ in .response(status: 204) }
        defer { server.stop() }
        let before = try Self.openFileCount()

        for _ in 0..<150 {
            let network = Self.cyclicNetwork(baseURL: server.baseURL)
            let response = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("ping")))
            #expect(response.statusCode == 204)
            network.invalidate()
        }

        // Sessions close their connections on their own delegate queues, a moment after
        // invalidation. The server's count of open connections is this test's alone; the process's
        // open-file count is moved by every test running beside it, so it is held to a bound that
        // only a leak of a file or more per network (150 or more) crosses, not to a flat line.
        try await waitUntil(timeout: .seconds(30)) { server.openConnectionCount <= 2 }
        try await waitUntil(timeout: .seconds(30)) { ((try? Self.openFileCount()) ?? .max) < before + 150 }
        #expect(server.requests.count == 150)
    }

    @Test("a network released without invalidate releases its own transport, without a crash")
    func releasedNetworkReleasesItsTransport() async throws {
        let server = try LoopbackHTTPServer(keepsConnectionsOpen: true) { _ in .response(status: 204) }
        defer { server.stop() }
        let before = try Self.openFileCount()

        for _ in 0..<150 {
            let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))
            _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("ping")))
        }

        try await waitUntil(timeout: .seconds(30)) { server.openConnectionCount <= 2 }
        try await waitUntil(timeout: .seconds(30)) { ((try? Self.openFileCount()) ?? .max) < before + 150 }
    }

    @Test("invalidate breaks the cycle through an action that holds the network, so the network goes away")
    func invalidateReleasesTheActions() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        weak var released: URLSessionNetwork?
        do {
            let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)
            network.add(action: AuthenticatingAction(authenticator: CyclicAuthenticator(network: network)))
            _ = try await network.send(NetworkRequest(url: testBaseURL))
            released = network
            network.invalidate()
        }
        // The refresh's task, which holds the authenticator and so the network, ends just after
        // the send it answered; give it that moment instead of racing it.
        let deadline = ContinuousClock.now + promptBound
        while released != nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(released == nil)
        #expect(session.authorizations == ["Bearer token"])
    }

    @Test("invalidate cancels the sends in flight; later sends fail with invalidated and send nothing")
    func invalidateCancelsAndRefuses() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: .seconds(30)))
        let network = makeNetwork(session: session)
        let inFlight = Task { try await network.send(NetworkRequest(url: testBaseURL)) }
        try await waitUntil { session.recordedRequests.count == 1 }

        network.invalidate()
        network.invalidate()

        await #expect { try await inFlight.value } throws: { ($0 as? NetworkError)?.isCancellation == true }
        await #expect { try await network.send(NetworkRequest(url: testBaseURL)) } throws: { Self.isInvalidated($0) }
        await #expect { try await network.send(ListUsers()) } throws: { Self.isInvalidated($0) }
        let viaCompletion = await withCheckedContinuation { continuation in
            network.send(ListUsers()) { continuation.resume(returning: $0) }
        }
        #expect { try viaCompletion.get() } throws: { Self.isInvalidated($0) }
        #expect(session.recordedRequests.count == 1)
        #expect(network.activeRequestCount == 0)
    }

    @Test("finishSendsAndInvalidate lets the sends in flight finish, refuses new ones, then returns")
    func finishSendsThenInvalidate() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: .milliseconds(200)))
        let network = makeNetwork(session: session)
        let inFlight = Task { try await network.send(NetworkRequest(url: testBaseURL)) }
        try await waitUntil { session.recordedRequests.count == 1 }

        let finishing = Task { await network.finishSendsAndInvalidate() }
        try await waitUntil { network.isInvalidated }
        await #expect { try await network.send(NetworkRequest(url: testBaseURL)) } throws: { Self.isInvalidated($0) }

        #expect(try await inFlight.value.statusCode == 204)
        await finishing.value
        #expect(network.activeRequestCount == 0)
        #expect(session.recordedRequests.count == 1)
    }

    @Test("invalidate while finishSendsAndInvalidate waits cancels what is still in progress")
    func invalidateCutsFinishingShort() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: .seconds(30)))
        let network = makeNetwork(session: session)
        let inFlight = Task { try await network.send(NetworkRequest(url: testBaseURL)) }
        try await waitUntil { session.recordedRequests.count == 1 }
        let finishing = Task { await network.finishSendsAndInvalidate() }
        try await waitUntil { network.isInvalidated }

        network.invalidate()

        await #expect { try await inFlight.value } throws: { ($0 as? NetworkError)?.isCancellation == true }
        await finishing.value
        #expect(network.activeRequestCount == 0)
    }

    @Test("a transport passed in is the caller's: invalidating the network leaves it working")
    func passedInTransportIsLeftAlone() async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 204) }
        defer { server.stop() }
        let transport = URLSessionTransport()
        defer { transport.invalidate() }
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: server.baseURL), session: transport)
        _ = try await network.send(NetworkRequest(url: server.baseURL))

        network.invalidate()

        let other = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL), session: transport)
        #expect(try await other.send(NetworkRequest(url: server.baseURL)).statusCode == 204)
        #expect(server.requests.count == 2)
    }
}
