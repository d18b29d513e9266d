import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// A Server-Sent Events subscription made on a fake (which passes the connection on to a real
/// network) ends with the fake's `cancelAll(of:)` and `finishSendsAndInvalidate()`, as on the
/// real network.
@Suite("FakeNetwork ends Server-Sent Events subscriptions", .timeLimit(.minutes(1)))
struct FakeNetworkServerSentEventTests {
    private struct Feed: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("feed"))
        }
    }

    /// A fake passing everything to a real network on a server whose event stream stays open
    /// until `gate` is signalled (or 30 s pass); the fake's send of it waits for the whole body.
    private static func openStream(gate: DispatchSemaphore) throws -> (
        FakeNetwork, URLSessionNetwork, LoopbackHTTPServer
    ) {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: one\n\n"
        let server = try LoopbackHTTPServer { _ in .raw(Data(head.utf8), gate: gate) }
        let real = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        return (FakeNetwork(baseURL: server.baseURL, passingUnstubbedRequestsTo: real), real, server)
    }

    /// Subscribes in a task of its own; returns the task, which ends with the subscription's error.
    private static func subscribe(to fake: FakeNetwork) -> Task<(any Error)?, Never> {
        Task {
            do {
                for try await _ in fake.serverSentEvents(Feed()) {}
                return nil
            } catch {
                return error
            }
        }
    }

    @Test("cancelAll(of:) with the subscription's request type ends it with cancelled")
    func cancelAllOfType() async throws {
        let gate = DispatchSemaphore(value: 0)
        let (fake, real, server) = try Self.openStream(gate: gate)
        defer {
            gate.signal()
            server.stop()
            real.invalidate()
        }
        let subscription = Self.subscribe(to: fake)
        try await waitUntil { server.requests.count == 1 && fake.activeRequestCount == 1 }

        fake.cancelAll(of: Feed.self)
        let error = await subscription.value
        #expect((error as? NetworkError)?.isCancellation == true, "got \(String(describing: error))")
        #expect(server.requests.count == 1)
    }

    @Test("finishSendsAndInvalidate ends a subscription with invalidated, and returns")
    func finishSendsAndInvalidate() async throws {
        let gate = DispatchSemaphore(value: 0)
        let (fake, real, server) = try Self.openStream(gate: gate)
        defer {
            gate.signal()
            server.stop()
            real.invalidate()
        }
        let subscription = Self.subscribe(to: fake)
        try await waitUntil { server.requests.count == 1 && fake.activeRequestCount == 1 }

        await fake.finishSendsAndInvalidate()
        let error = await subscription.value
        guard case .invalidated? = error as? NetworkError else {
            Issue.record("expected invalidated, got \(String(describing: error))")
            return
        }
        #expect(fake.activeRequestCount == 0)
    }
}
