import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// What a Server-Sent Events subscription holds while its consumer pauses, and how the network's
/// `cancelAll(of:)` and `finishSendsAndInvalidate()` end it.
@Suite("Server-Sent Events subscriptions: read-ahead, cancellation and shutdown", .timeLimit(.minutes(1)))
struct ServerSentEventLifecycleTests {
    private struct Feed: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("feed"))
        }
    }

    private struct OtherRequest: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("other"))
        }
    }

    /// The head of an event stream that lasts until the connection closes, and a first event.
    private static let openStream = Data(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: one\n\n".utf8)

    @Test("a consumer that pauses leaves the server's events unread: the subscription reads ahead a bounded amount")
    func boundedReadAhead() async throws {
        // In memory, so that the bytes the library pulls are counted exactly, and the server never
        // runs out: 64 KiB chunks of 100-byte events, up to 16 MiB.
        let event = "data: " + String(repeating: "x", count: 92) + "\n\n"
        let chunk = Data(String(repeating: event, count: 655).utf8)
        let limit = 16 << 20
        let pulled = LockedState(0)
        let transport = ScriptedTransport { _, _ in
            TransportResponse(
                statusCode: 200, headers: ["Content-Type": "text/event-stream"],
                body: ByteStream(next: {
                    pulled.withLock { pulled -> Data? in
                        guard pulled < limit else { return nil }
                        pulled += chunk.count
                        return chunk
                    }
                }))
        }
        let network = URLSessionNetwork(
            configuration: .init(baseURL: URL(string: "https://events.example.com")!), transport: transport)
        defer { network.invalidate() }
        var events = network.serverSentEvents(Feed()).makeAsyncIterator()
        #expect(try await events.next()?.data.count == 92)

        // The consumer pauses. Wait until the library stops pulling (five quiet readings in a
        // row), or has pulled everything, as it would if it read ahead without bound.
        var quietReadings = 0
        var last = -1
        let deadline = ContinuousClock.now + promptBound
        while quietReadings < 5, pulled.withLock({ $0 }) < limit, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            let now = pulled.withLock { $0 }
            quietReadings = now == last ? quietReadings + 1 : 0
            last = now
        }
        // The streamed body's buffer (1 MiB) and a chunk or two around it, never the 16 MiB.
        let readAhead = pulled.withLock { $0 }
        #expect(readAhead <= 2 << 20, "read \(readAhead) bytes ahead of a paused consumer")
        // And it goes on where it left off.
        #expect(try await events.next()?.data.count == 92)
    }

    @Test("cancelAll(of:) with the subscription's request type ends it while a connection is open")
    func cancelAllOfTypeWhileOpen() async throws {
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in .raw(Self.openStream, gate: gate) }
        defer {
            gate.signal()
            server.stop()
        }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var events = network.serverSentEvents(Feed()).makeAsyncIterator()
        #expect(try await events.next()?.data == "one")

        network.cancelAll(of: OtherRequest.self)
        #expect(network.activeRequestCount == 1, "another request type's cancellation ended the stream")
        network.cancelAll(of: Feed.self)
        let error = await networkError { _ = try await events.next() }
        #expect(error?.isCancellation == true, "got \(String(describing: error))")
        #expect(try await events.next() == nil)
    }

    @Test("cancelAll(of:) with the subscription's request type ends it while it waits to reconnect")
    func cancelAllOfTypeWhileWaiting() async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data("data: one\n\n".utf8))
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        let received = Log<String>()
        let subscription = Task {
            await networkError {
                for try await event in network.serverSentEvents(Feed(), reconnection: .init(delay: longDelay)) {
                    received.append(event.data)
                }
            }
        }
        // The connection brought its event and closed; the subscription now waits two minutes.
        try await waitUntil { received.all == ["one"] && network.activeRequestCount == 0 }

        network.cancelAll(of: Feed.self)
        // Should cancelAll miss it, the time limit ends the test, and with it the subscription.
        let error = await withTaskCancellationHandler {
            await subscription.value
        } onCancel: {
            subscription.cancel()
        }
        #expect(error?.isCancellation == true, "got \(String(describing: error))")
        #expect(server.requests.count == 1)
    }

    @Test("finishSendsAndInvalidate ends an open subscription with invalidated, and returns")
    func finishSendsAndInvalidateEndsSubscription() async throws {
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in .raw(Self.openStream, gate: gate) }
        defer {
            gate.signal()
            server.stop()
        }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        var events = network.serverSentEvents(Feed()).makeAsyncIterator()
        #expect(try await events.next()?.data == "one")

        // Waited for ever while the stream, which has no end, stayed open.
        await network.finishSendsAndInvalidate()

        let error = await networkError { _ = try await events.next() }
        guard case .invalidated? = error else {
            Issue.record("expected invalidated, got \(String(describing: error))")
            return
        }
        #expect(network.activeRequestCount == 0)
        #expect(server.requests.count == 1)
    }
}
