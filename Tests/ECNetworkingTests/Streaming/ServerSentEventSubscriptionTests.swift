import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// Server-Sent Events subscriptions over a real socket: events in order, reconnection with
/// `Last-Event-ID` only when asked, and a typed error for what is not an event stream.
@Suite("Server-Sent Events subscriptions", .timeLimit(.minutes(1)))
struct ServerSentEventSubscriptionTests {
    private struct Feed: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("feed"))
        }
    }

    /// Answers with two events after the one the client last saw, then ends the stream, as a
    /// server that restarts does.
    private static func resumingServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let last = request.header("Last-Event-ID").flatMap { Int($0) } ?? 0
            let events = (last + 1...last + 2).map { "id: \($0)\ndata: event \($0)\n\n" }.joined()
            return .response(
                status: 200, headers: ["Content-Type": "text/event-stream; charset=utf-8"],
                body: Data(("retry: 50\n: keep-alive\n" + events).utf8))
        }
    }

    @Test("without reconnection the sequence ends with the stream")
    func endsWithStream() async throws {
        let server = try Self.resumingServer()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var received: [String] = []
        for try await event in network.serverSentEvents(Feed()) { received.append(event.data) }
        #expect(received == ["event 1", "event 2"])
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.header("Accept") == "text/event-stream")
    }

    @Test("with reconnection a new connection resumes after the last event ID, after the server's retry delay")
    func reconnects() async throws {
        let server = try Self.resumingServer()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var received: [String] = []
        let clock = ContinuousClock()
        let start = clock.now
        for try await event in network.serverSentEvents(Feed(), reconnection: .init(delay: longDelay)) {
            received.append(event.data)
            if received.count == 6 { break }
        }
        // The server's 50 ms `retry`, not the client's own delay, spaced the connections.
        #expect(clock.now - start < promptBound)
        #expect(received == (1...6).map { "event \($0)" })
        let resumedFrom = server.requests.map { $0.header("Last-Event-ID") }
        #expect(resumedFrom == [nil, "2", "4"])
    }

    @Test("the connection-opened handler hears of each connection that opens as an event stream, before its events")
    func connectionOpened() async throws {
        let server = try Self.resumingServer()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        let timeline = Log<String>()
        let feed = network.serverSentEvents(Feed(), reconnection: .init(delay: .milliseconds(10)))
            .onConnectionOpened { response in timeline.append("opened \(response.statusCode)") }
        for try await event in feed {
            timeline.append(event.data)
            if event.data == "event 4" { break }
        }
        #expect(timeline.all == ["opened 200", "event 1", "event 2", "opened 200", "event 3", "event 4"])
    }

    @Test("the connection-opened handler is not called for a 204 that ends the subscription")
    func connectionOpenedNotForNoContent() async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 204) }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        let opened = Counter()
        for try await _ in network.serverSentEvents(Feed()).onConnectionOpened({ _ in opened.increment() }) {}
        #expect(opened.count == 0)
    }

    @Test("a subscription seeded with a last event ID sends it on its first connection and resumes from it")
    func seededLastEventID() async throws {
        let server = try Self.resumingServer()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var received: [ServerSentEvent] = []
        for try await event in network.serverSentEvents(Feed(), lastEventID: "41") { received.append(event) }
        #expect(server.requests.first?.header("Last-Event-ID") == "41")
        #expect(received.map(\.data) == ["event 42", "event 43"])
        #expect(received.map(\.id) == ["42", "43"])
    }

    @Test("a stream cut inside an event reconnects from the last whole event")
    func cutMidEvent() async throws {
        let server = try LoopbackHTTPServer { request in
            let body =
                request.header("Last-Event-ID") == nil
                ? "id: 1\ndata: first\n\nid: 2\ndata: cut sh" : "id: 2\ndata: second\n\nid: 3\ndata: third\n\n"
            return .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8))
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var received: [String] = []
        for try await event in network.serverSentEvents(Feed(), reconnection: .init(delay: .milliseconds(10))) {
            received.append(event.data)
            if received.count == 3 { break }
        }
        #expect(received == ["first", "second", "third"])
        #expect(server.requests.map { $0.header("Last-Event-ID") } == [nil, "1"])
    }

    @Test(
        "a connection silent for the subscription's idle timeout is dropped and made again, resuming after the last event",
        arguments: TransportKind.allCases)
    func idleTimeoutReconnects(kind: TransportKind) async throws {
        // The first connection sends one event and then nothing for 30 s; the next ends at once.
        // The idle timeout is seconds: its timer starts with the body's reader, and on two busy
        // cores a transport's thread has gone over a second before handing over what came with the
        // head. With 300 ms the first connection could be dropped before its event, and the second
        // would then ask again from the start, with no Last-Event-ID.
        let server = try LoopbackHTTPServer { request in
            guard request.header("Last-Event-ID") == nil else {
                return .response(
                    status: 200, headers: ["Content-Type": "text/event-stream"],
                    body: Data("id: 2\ndata: second\n\n".utf8))
            }
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
            return .raw(Data((head + "id: 1\ndata: first\n\n").utf8), gate: DispatchSemaphore(value: 0))
        }
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let received = try await kind.withNetwork(baseURL: server.baseURL) { network in
            var received: [String] = []
            let reconnection = ServerSentEventReconnection(delay: .milliseconds(10), idleTimeout: .seconds(3))
            for try await event in network.serverSentEvents(Feed(), reconnection: reconnection) {
                received.append(event.data)
                if received.count == 2 { break }
            }
            return received
        }
        #expect(received == ["first", "second"])
        #expect(server.requests.map { $0.header("Last-Event-ID") } == [nil, "1"])
        // Well before the network's 60 s stream idle timeout, or the server's 30 s of silence.
        #expect(clock.now - start < .seconds(20))
    }

    @Test("a 204 ends the subscription cleanly, with no reconnection")
    func noContentStops() async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 204) }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var received = 0
        for try await _ in network.serverSentEvents(Feed(), reconnection: .init(delay: .milliseconds(10))) {
            received += 1
        }
        #expect(received == 0)
        #expect(server.requests.count == 1)
    }

    @Test(
        "a success other than 200 fails with unacceptableStatusCode, with no reconnection, as the standard says",
        arguments: [201, 203, 206])
    func onlyTwoHundredIsAStream(status: Int) async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(
                status: status, headers: ["Content-Type": "text/event-stream"], body: Data("data: one\n\n".utf8))
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var received: [String] = []
        let error = await networkError {
            for try await event in network.serverSentEvents(Feed(), reconnection: .init(delay: .milliseconds(10))) {
                received.append(event.data)
            }
        }
        guard case .unacceptableStatusCode(let response)? = error else {
            Issue.record("expected unacceptableStatusCode, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == status)
        #expect(received.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test("a response that is not an event stream fails with unacceptableContentType")
    func wrongContentType() async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html></html>".utf8))
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        let error = await networkError {
            for try await _ in network.serverSentEvents(Feed(), reconnection: .init(delay: .milliseconds(10))) {}
        }
        guard case .unacceptableContentType(let response)? = error else {
            Issue.record("expected unacceptableContentType, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 200)
        // Not worth reconnecting: the server answered, with something else.
        #expect(server.requests.count == 1)
    }

    @Test("a server that cannot be reached ends the subscription with reconnectionLimitReached and the last error")
    func givesUp() async throws {
        // A port nothing listens on: every connection fails.
        let closed = try ClosedPort()
        let network = URLSessionNetwork(configuration: .init(baseURL: closed.baseURL))
        defer { network.invalidate() }
        let error = await subscriptionError(
            network.serverSentEvents(
                Feed(), reconnection: .init(delay: .milliseconds(10), maximumConsecutiveFailures: 2)))
        guard case .reconnectionLimitReached(let lastError)? = error, case .transport? = lastError as? NetworkError
        else {
            Issue.record("expected reconnectionLimitReached with a transport error, got \(String(describing: error))")
            return
        }
    }

    @Test("connections the server closes before sending a line are failures: past the limit the subscription fails")
    func closedAtOnceCountsAsFailure() async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data())
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        let error = await subscriptionError(
            network.serverSentEvents(
                Feed(), reconnection: .init(delay: .milliseconds(10), maximumConsecutiveFailures: 2)))
        // Closed cleanly, with nothing sent: no error to carry, but not a quiet end either.
        #expect(error == .reconnectionLimitReached(lastError: nil))
        // The first connection and the two reconnections the limit allows.
        #expect(server.requests.count == 3)
    }

    @Test("heartbeats-only connections that a proxy closes are not failures, however many there are")
    func heartbeatsAreProgress() async throws {
        let connections = Counter()
        let server = try LoopbackHTTPServer { _ in
            // Five connections that bring only a comment, more than the limit of failures allows.
            let body = connections.increment() <= 5 ? ": heartbeat\n\n" : "data: finally\n\n"
            return .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8))
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var received: [String] = []
        for try await event in network.serverSentEvents(
            Feed(), reconnection: .init(delay: .milliseconds(10), maximumConsecutiveFailures: 2))
        {
            received.append(event.data)
            break
        }
        #expect(received == ["finally"])
        #expect(server.requests.count == 6)
    }

    @Test("a retry field on its own, in an event without data, sets the delay before the next connection")
    func retryAloneSetsTheDelay() async throws {
        let connections = Counter()
        let server = try LoopbackHTTPServer { _ in
            let body = connections.increment() == 1 ? "retry: 20\n\n" : "data: after the retry\n\n"
            return .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8))
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var received: [String] = []
        // Were the retry ignored, the second connection would wait two minutes, past the time limit.
        for try await event in network.serverSentEvents(Feed(), reconnection: .init(delay: longDelay)) {
            received.append(event.data)
            break
        }
        #expect(received == ["after the retry"])
        #expect(server.requests.count == 2)
    }

    /// The error a subscription ends with, which must be a ``ServerSentEventError``.
    private func subscriptionError(
        _ subscription: ServerSentEventSubscription, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ServerSentEventError? {
        do {
            for try await _ in subscription {}
            Issue.record("the subscription ended without an error", sourceLocation: sourceLocation)
        } catch let error as ServerSentEventError {
            return error
        } catch {
            Issue.record("expected a ServerSentEventError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }
}
