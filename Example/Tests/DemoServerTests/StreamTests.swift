import DemoServer
import Foundation
import Testing

@Suite("GET /stream/tokens, GET /events and GET /mislabelled")
struct StreamTests {
    @Test func tokensAreNDJSONLines() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/stream/tokens?count=3&intervalMs=0")

            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/x-ndjson")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(
                text == """
                    {"index":0,"token":"ECNetworking"}
                    {"index":1,"token":"reads"}
                    {"index":2,"token":"this"}

                    """)
        }
    }

    @Test func tokensAreWrittenTheIntervalApart() async throws {
        try await withDemoServer { _, client in
            let clock = ContinuousClock()
            let start = clock.now
            let response = try await client.get("/stream/tokens?count=3&intervalMs=200")

            #expect(response.status == 200)
            #expect(clock.now - start >= .milliseconds(400))
        }
    }

    @Test func eventsHaveIDsTwoDataLinesARetryAndKeepAliveComments() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/events?count=2&intervalMs=0&retryMs=150")

            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/event-stream")
            #expect(response.header("Cache-Control") == "no-store")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(
                text == ": events 1 to 2\n\n" + "retry: 150\nid: 1\nevent: tick\ndata: tick 1\ndata: of 2\n\n"
                    + ": keep-alive\n\n" + "id: 2\nevent: done\ndata: tick 2\ndata: of 2\n\n")
        }
    }

    @Test func lastEventIDResumesAfterThatEvent() async throws {
        try await withDemoServer { _, client in
            let resumed = try await client.send("GET", "/events?count=3&intervalMs=0", headers: ["Last-Event-ID": "1"])
            let text = String(decoding: resumed.body, as: UTF8.self)
            #expect(text.hasPrefix(": events 2 to 3\n\nretry: 1000\nid: 2\n"))
            #expect(!text.contains("id: 1\n"))

            // An ID the server never sent starts over.
            let unknown = try await client.send("GET", "/events?count=1&intervalMs=0", headers: ["Last-Event-ID": "x"])
            #expect(String(decoding: unknown.body, as: UTF8.self).contains("id: 1\n"))
        }
    }

    @Test func dropAfterClosesTheConnectionAfterThatEvent() async throws {
        try await withDemoServer { server, client in
            await #expect(throws: URLError.self) {
                try await client.get("/events?count=3&intervalMs=0&dropAfter=1")
            }
            // A drop the server made on purpose is not a client that went away.
            #expect(await server.recorder.abandonedStreams.isEmpty)
            // Resuming after the dropped event goes on to the end without another drop.
            let resumed = try await client.send(
                "GET", "/events?count=3&intervalMs=0&dropAfter=1", headers: ["Last-Event-ID": "1"])
            #expect(
                String(decoding: resumed.body, as: UTF8.self).hasSuffix(
                    "id: 3\nevent: done\ndata: tick 3\ndata: of 3\n\n"))
        }
    }

    @Test func cutAfterEndsTheBodyInTheMiddleOfTheNextEvent() async throws {
        try await withDemoServer { _, client in
            let cut = try await client.get("/events?count=3&intervalMs=0&cutAfter=1")
            let text = String(decoding: cut.body, as: UTF8.self)
            #expect(text.hasSuffix("id: 1\nevent: tick\ndata: tick 1\ndata: of 3\n\nid: 2\ndata: tick 2\n"))

            // Resuming after the last whole event sends the rest whole.
            let resumed = try await client.send(
                "GET", "/events?count=3&intervalMs=0&cutAfter=1", headers: ["Last-Event-ID": "1"])
            #expect(
                String(decoding: resumed.body, as: UTF8.self).hasSuffix(
                    "id: 3\nevent: done\ndata: tick 3\ndata: of 3\n\n"))
        }
    }

    @Test func mislabelledSendsJSONUnderTheTypeAskedFor() async throws {
        try await withDemoServer { _, client in
            let html = try await client.get("/mislabelled")
            #expect(html.header("Content-Type") == "text/html; charset=utf-8")
            #expect(try html.decode(MislabelledReply.self) == MislabelledReply(contentType: "text/html; charset=utf-8"))

            let problem = try await client.get("/mislabelled?type=application/problem%2Bjson")
            #expect(problem.header("Content-Type") == "application/problem+json")
        }
    }
}
