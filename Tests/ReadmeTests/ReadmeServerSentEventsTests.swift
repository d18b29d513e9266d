import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

// The Server-Sent Events snippets of Uploads, Downloads and Streams, verbatim, run on a body split
// in awkward places and on a response from a network.

@Suite("Articles: reading Server-Sent Events")
struct ReadmeServerSentEventsTests {
    @Test("the parser returns each event once it is complete, however the chunks cut it")
    func parser() throws {
        let body = "\u{FEFF}: a comment\r\nid: 7\r\nevent: price\r\ndata: 101\r\ndata: 102\r\n\r\ndata: last\n\n"
        // Cut inside the byte order mark, between CR and LF, and inside a field name.
        let bytes = Data(body.utf8)
        let cuts = [1, 14, 15, 24, bytes.count]
        var start = 0
        let chunks: [Data] = cuts.map { end in
            defer { start = end }
            return bytes.subdata(in: start..<end)
        }

        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        for chunk in chunks {
            events += try parser.parse(chunk)
        }
        try parser.finish()

        #expect(
            events == [
                ServerSentEvent(id: "7", event: "price", data: "101\n102"),
                ServerSentEvent(id: "7", data: "last"),
            ])
    }

    @Test("a stream cut inside an event ends with a typed error")
    func cutStream() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Data("data: half".utf8))
        #expect(throws: ServerSentEventError.streamEndedMidEvent) { try parser.finish() }
    }

    @Test("a response body reads as events, filtered by type")
    func responseBody() async throws {
        let session = MockSession()
        let stream = "event: price\ndata: 101\n\nevent: news\ndata: closed\n\nevent: price\ndata: 99\n\n"
        session.stub(
            .path("/events"),
            with: MockResponse(data: Data(stream.utf8), headers: ["Content-Type": "text/event-stream"]))
        let baseURL = URL(string: "https://api.example.com")!
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL), session: session)
        var prices: [String] = []

        let feed = try await network.send(NetworkRequest(url: baseURL.appendingPathComponent("events")))
        for try await event in ByteStream(feed.body).serverSentEvents() where event.event == "price" {
            prices.append(event.data)
        }

        #expect(prices == ["101", "99"])
    }
}
