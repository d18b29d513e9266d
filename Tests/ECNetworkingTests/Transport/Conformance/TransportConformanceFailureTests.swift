import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// The same failures through the library over every transport, on a real socket: each ends once,
/// at the right time, with the same typed error whichever transport carries it.
@Suite("Transport conformance: failures, deadlines and cancellation", .timeLimit(.minutes(2)))
struct TransportConformanceFailureTests {
    private let clock = ContinuousClock()
    private let megabyte = TransportTestRoutes.megabyte
    /// The deadline of the deadline cases: long enough that connecting never eats into it.
    private let deadline: Duration = .seconds(1)
    /// How far from the deadline such a send may end.
    private let deadlineTolerance: Duration = .milliseconds(250)

    private func request(_ path: String, on server: LoopbackHTTPServer) -> NetworkRequest {
        NetworkRequest(url: server.baseURL.appendingPathComponent(path))
    }

    /// Checks that a send that ended at `end` after starting at `start` ended at the deadline.
    private func expectEndedAtDeadline(
        _ elapsed: Duration, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(elapsed >= deadline - deadlineTolerance, "ended after \(elapsed)", sourceLocation: sourceLocation)
        #expect(elapsed <= deadline + deadlineTolerance, "ended after \(elapsed)", sourceLocation: sourceLocation)
    }

    @Test("a gzip bomb fails with responseTooLarge, stopped at the limit", arguments: TransportKind.allCases)
    func gzipBomb(_ kind: TransportKind) async throws {
        // About 100 MB once decoded, 650 kB on the wire: inflating it whole would take the
        // process's memory up by 100 MB; ResponseSizeMemoryTests measures that bound per transport.
        let bomb = GzipBomb.body(periods: 50_000)
        let server = try LoopbackHTTPServer { _ in
            .response(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb)
        }
        defer { server.stop() }
        let error = try await kind.withNetwork(
            baseURL: server.baseURL, configure: { $0.maximumResponseSize = megabyte }
        ) {
            network in
            await networkError { _ = try await network.send(request("bomb", on: server)) }
        }
        guard case .responseTooLarge(let limit)? = error else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == megabyte)
    }

    @Test("50 MB against a 1 MB limit fails with responseTooLarge, quickly", arguments: TransportKind.allCases)
    func largeBody(_ kind: TransportKind) async throws {
        let body = Data(repeating: 0x65, count: 50 * megabyte)
        let server = try LoopbackHTTPServer { _ in .response(status: 200, body: body) }
        defer { server.stop() }
        let start = clock.now
        let error = try await kind.withNetwork(
            baseURL: server.baseURL, configure: { $0.maximumResponseSize = megabyte }
        ) {
            network in
            await networkError { _ = try await network.send(request("large", on: server)) }
        }
        guard case .responseTooLarge(let limit)? = error else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == megabyte)
        #expect(clock.now - start < promptBound)
        // The transfer stopped: the server is not left writing the other 49 MB.
        try await waitUntil { server.openConnectionCount == 0 }
    }

    @Test("a head that never arrives ends at the deadline with timedOut", arguments: TransportKind.allCases)
    func headNeverArrives(_ kind: TransportKind) async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in
            _ = release.wait(timeout: .now() + 60)
            return .response(status: 200)
        }
        defer {
            release.signal()
            server.stop()
        }
        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.timeout = deadline }) { network in
            let start = clock.now
            let error = await networkError { _ = try await network.send(request("slow", on: server)) }
            let elapsed = clock.now - start
            guard case .timedOut(let after)? = error else {
                Issue.record("expected timedOut, got \(String(describing: error))")
                return
            }
            #expect(after == deadline)
            expectEndedAtDeadline(elapsed)
        }
    }

    @Test("a body that stalls ends at the deadline with timedOut", arguments: TransportKind.allCases)
    func bodyStalls(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in .stall(declaredLength: 1_000, prefix: Data("partial".utf8)) }
        defer { server.stop() }
        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.timeout = deadline }) { network in
            let start = clock.now
            let error = await networkError { _ = try await network.send(request("stall", on: server)) }
            let elapsed = clock.now - start
            guard case .timedOut(let after)? = error else {
                Issue.record("expected timedOut, got \(String(describing: error))")
                return
            }
            #expect(after == deadline)
            expectEndedAtDeadline(elapsed)
        }
        // The stalled connection was dropped, not left to the server.
        try await waitUntil { server.openConnectionCount == 0 }
    }

    @Test("cancelling before the head ends the send at once with cancelled", arguments: TransportKind.allCases)
    func cancelBeforeHead(_ kind: TransportKind) async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in
            _ = release.wait(timeout: .now() + 60)
            return .response(status: 200)
        }
        defer {
            release.signal()
            server.stop()
        }
        try await expectCancellation(kind, on: server)
    }

    @Test("cancelling after the head ends the send at once with cancelled", arguments: TransportKind.allCases)
    func cancelAfterHead(_ kind: TransportKind) async throws {
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in
            .raw(Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\npartial".utf8), gate: gate)
        }
        defer {
            gate.signal()
            server.stop()
        }
        try await expectCancellation(kind, on: server, afterHead: true)
    }

    /// Sends to `server`, which must not answer in full, cancels the sending task once the server
    /// has the request, and checks that the send ends promptly with `cancelled`. (Whether the
    /// connection went away is not visible here: the server thread sits in the held reply.)
    private func expectCancellation(
        _ kind: TransportKind, on server: LoopbackHTTPServer, afterHead: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let send = Task { await networkError { _ = try await network.send(request("held", on: server)) } }
            try await waitUntil { !server.requests.isEmpty }
            // Nothing tells the test that the head reached the client, only that the server sent it;
            // loopback delivers it well within this.
            if afterHead { try await Task.sleep(for: .milliseconds(200)) }
            let cancelled = clock.now
            send.cancel()
            let error = await send.value
            #expect(error?.isCancellation == true, "got \(String(describing: error))", sourceLocation: sourceLocation)
            // The network's deadline is 60 s and the server holds the reply for as long: only the
            // cancellation ends this send.
            #expect(clock.now - cancelled < .seconds(10), sourceLocation: sourceLocation)
        }
    }

    @Test("a port nobody listens on fails with cannotConnectToHost", arguments: TransportKind.allCases)
    func deadPort(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 200) }
        server.stop()
        try await waitUntil { server.openConnectionCount == 0 }
        let error = try await kind.withNetwork(baseURL: server.baseURL) { network in
            await networkError { _ = try await network.send(request("hello", on: server)) }
        }
        #expect(error?.transportCode == .cannotConnectToHost, "got \(String(describing: error))")
    }

    @Test("a connection reset mid-body fails with networkConnectionLost", arguments: TransportKind.allCases)
    func resetMidBody(_ kind: TransportKind) async throws {
        var bytes = Data("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n".utf8)
        bytes.append(Data(repeating: 0x66, count: 10_000))
        let server = try LoopbackHTTPServer { [bytes] _ in .reset(bytes) }
        defer { server.stop() }
        let error = try await kind.withNetwork(baseURL: server.baseURL) { network in
            await networkError { _ = try await network.send(request("reset", on: server)) }
        }
        #expect(error?.transportCode == .networkConnectionLost, "got \(String(describing: error))")
    }

    @Test(
        "a body shorter than its Content-Length fails with networkConnectionLost, never a short success",
        arguments: TransportKind.allCases)
    func truncatedBody(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in .truncated(declaredLength: 100, body: Data("0123456789".utf8)) }
        defer { server.stop() }
        let error = try await kind.withNetwork(baseURL: server.baseURL) { network in
            await networkError { _ = try await network.send(request("short", on: server)) }
        }
        #expect(error?.transportCode == .networkConnectionLost, "got \(String(describing: error))")
    }
}
