import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Server-Sent Events end to end", .timeLimit(.minutes(1)))
struct ServerSentEventsTests {
    private let clock = ContinuousClock()

    @Test(
        "events arrive as the server sends them, with ids, types, two-line data and the retry, and end with the stream")
    func eventsArriveAndEnd() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            // Long enough that a loaded machine, which can hold the client a second behind, still
            // sees events arrive over time.
            let (count, interval) = (8, 250)
            let request = TickEventsRequest(count: count, intervalMilliseconds: interval, retryMilliseconds: 400)
            let start = clock.now

            var events: [ServerSentEvent] = []
            var arrivals: [Duration] = []
            for try await event in client.network.serverSentEvents(request) {
                events.append(event)
                arrivals.append(clock.now - start)
            }

            #expect(
                events.first == ServerSentEvent(id: "1", event: "tick", data: "tick 1\nof 8", retry: .milliseconds(400))
            )
            #expect(events.dropFirst().first == ServerSentEvent(id: "2", event: "tick", data: "tick 2\nof 8"))
            #expect(events.last == ServerSentEvent(id: "8", event: "done", data: "tick 8\nof 8"))
            #expect(events.map(\.id) == (1...count).map { String($0) })
            // Read whole at the end, the body would deliver every event at once.
            #expect(arrivals.count == count && arrivals[count - 1] - arrivals[0] >= .milliseconds(2 * interval))
            let recorded = await server.recorder.requests(path: "/events")
            #expect(recorded.count == 1, "without reconnection, the end of the stream is the end")
            // The subscription asks for an event stream, whatever the client's default Accept.
            #expect(recorded.first?.headers.values(for: "Accept") == ["text/event-stream"])
            #expect(recorded.first?.headers["Last-Event-ID"] == nil)
        }
    }

    @Test("a subscription seeded with a last event ID sends it on its first connection and gets only later events")
    func seededLastEventID() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let request = TickEventsRequest(count: 8, intervalMilliseconds: 10)

            var ids: [String?] = []
            for try await event in client.network.serverSentEvents(request, lastEventID: "5") {
                ids.append(event.id)
            }

            #expect(ids == ["6", "7", "8"])
            let recorded = await server.recorder.requests(path: "/events")
            #expect(recorded.count == 1)
            #expect(recorded.first?.headers["Last-Event-ID"] == "5")
        }
    }

    @Test("a dropped connection is reopened after the server's retry, with Last-Event-ID, and resumes without a gap")
    func reconnectsWithLastEventID() async throws {
        try await withDemoServer { server in
            let stages = StageEventLog()
            let client = makeClient(for: server, events: stages)
            let request = TickEventsRequest(count: 5, intervalMilliseconds: 200, retryMilliseconds: 100, dropAfter: 2)
            // Far longer than the server's retry, so a quick reconnection shows the retry was obeyed.
            let reconnection = ServerSentEventReconnection(delay: .seconds(30), maximumConsecutiveFailures: 1)
            let start = clock.now

            var ids: [String] = []
            for try await event in client.network.serverSentEvents(request, reconnection: reconnection) {
                ids.append(event.id ?? "")
                // A server that ignored Last-Event-ID would replay the first events for ever.
                if event.event == "done" || ids.count == 10 { break }
            }

            let elapsed = clock.now - start
            let trace = stages.events.map { "\($0) at \(format($0.instant - start))" }
            report("5 events over two connections in \(format(elapsed))")
            #expect(ids == ["1", "2", "3", "4", "5"])
            #expect(elapsed < .seconds(15), "the reconnection waited 30 s, not the server's 100 ms: \(trace)")
            let recorded = await server.recorder.requests(path: "/events")
            #expect(recorded.count == 2)
            #expect(recorded.first?.headers["Last-Event-ID"] == nil)
            #expect(recorded.last?.headers["Last-Event-ID"] == "2")
        }
    }

    @Test("a stream that ends in the middle of an event delivers the whole events, then fails with streamEndedMidEvent")
    func cutMidEventIsATypedError() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let request = TickEventsRequest(count: 4, intervalMilliseconds: 0, cutAfter: 2)

            var ids: [String] = []
            var failure: (any Error)?
            do {
                for try await event in client.network.serverSentEvents(request) {
                    ids.append(event.id ?? "")
                }
            } catch {
                failure = error
            }

            #expect(ids == ["1", "2"], "the half-written third event is not delivered")
            #expect(failure as? ServerSentEventError == .streamEndedMidEvent, "got \(String(describing: failure))")
        }
    }

    @Test("with reconnection, a stream that ends in the middle of an event is resumed after the last whole one")
    func cutMidEventIsResumed() async throws {
        try await resumeAfterACut()
    }

    private func resumeAfterACut() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let request = TickEventsRequest(count: 4, intervalMilliseconds: 0, retryMilliseconds: 10, cutAfter: 2)
            let reconnection = ServerSentEventReconnection(delay: .milliseconds(10), maximumConsecutiveFailures: 1)

            var ids: [String] = []
            for try await event in client.network.serverSentEvents(request, reconnection: reconnection) {
                ids.append(event.id ?? "")
                if event.event == "done" || ids.count == 10 { break }
            }

            #expect(ids == ["1", "2", "3", "4"])
            let recorded = await server.recorder.requests(path: "/events")
            #expect(recorded.map { $0.headers["Last-Event-ID"] } == [nil, "2"])
        }
    }

    @Test("leaving the loop closes the connection: the server sees its client go")
    func breakingOutClosesTheConnection() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let request = TickEventsRequest(count: 200, intervalMilliseconds: 50)

            for try await event in client.network.serverSentEvents(request) where event.id == "2" {
                break
            }

            let noticed = try await eventually { await server.recorder.abandonedStreams == ["/events"] }
            #expect(noticed, "the server went on sending events to nobody")
        }
    }

    @Test("a response that is not an event stream fails with unacceptableContentType, and is not retried")
    func wrongTypeIsRefused() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let events = client.network.serverSentEvents(
                MislabelledRequest(contentType: "application/json"),
                reconnection: ServerSentEventReconnection(delay: .milliseconds(10)))

            let error = await #expect(throws: NetworkError.self) {
                for try await _ in events {}
            }

            guard case .unacceptableContentType(let response)? = error else {
                Issue.record("expected unacceptableContentType, got \(String(describing: error))")
                return
            }
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(await server.recorder.requests(path: "/mislabelled").count == 1)
        }
    }
}
