import ECNetworking
import Foundation
import Testing

/// Parses `chunks` in order, then finishes, returning every event.
private func parse(_ chunks: [Data], maximumLineLength: Int = ServerSentEventParser.defaultMaximumLineLength)
    throws -> [ServerSentEvent]
{
    var parser = ServerSentEventParser(maximumLineLength: maximumLineLength)
    var events: [ServerSentEvent] = []
    for chunk in chunks { events += try parser.parse(chunk) }
    try parser.finish()
    return events
}

private func parse(_ text: String) throws -> [ServerSentEvent] {
    try parse([Data(text.utf8)])
}

/// `data` cut into pieces of `size` bytes.
private func pieces(of data: Data, size: Int) -> [Data] {
    stride(from: 0, to: data.count, by: size).map { data.subdata(in: $0..<min($0 + size, data.count)) }
}

@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    @Test("fields: data lines joined with newlines, event type, id kept across events, retry")
    func fields() throws {
        let events = try parse("id: 7\nevent: update\ndata: first\ndata:second\nretry: 1500\n\ndata: next\n\n")

        #expect(
            events == [
                ServerSentEvent(id: "7", event: "update", data: "first\nsecond", retry: .milliseconds(1500)),
                ServerSentEvent(id: "7", event: "message", data: "next"),
            ])
    }

    @Test("LF, CR and CRLF line ends all work, mixed in one stream", arguments: ["\n", "\r", "\r\n"])
    func lineEnds(lineEnd: String) throws {
        let text = ["data: a", "data: b", "", "event: e", "data: c", "", ""].joined(separator: lineEnd)

        #expect(try parse(text) == [ServerSentEvent(data: "a\nb"), ServerSentEvent(event: "e", data: "c")])
        #expect(try parse("data: x\r\ndata: y\rdata: z\n\r\n") == [ServerSentEvent(data: "x\ny\nz")])
    }

    @Test("a CRLF split between two chunks ends one line, not two")
    func splitCRLF() throws {
        // Were the LF taken for a second line end, it would be a blank line dispatching "a" alone.
        let events = try parse([Data("data: a\r".utf8), Data("\ndata: b\r\n\r\n".utf8)])

        #expect(events == [ServerSentEvent(data: "a\nb")])
    }

    // Found by the sse fuzz target: an empty chunk between the CR and the LF forgot the CR, so the
    // LF ended a second, blank line and dispatched the event before its `id` line.
    @Test("a CRLF split by an empty chunk still ends one line")
    func crlfSplitByEmptyChunk() throws {
        let events = try parse([Data("data: a\r".utf8), Data(), Data("\nid: 1\n\n".utf8)])

        #expect(events == [ServerSentEvent(id: "1", data: "a")])
    }

    @Test("an event split at every byte, with a multi-byte character, parses as when whole")
    func splitEverywhere() throws {
        let text = Data("id: 1\nevent: greet\ndata: héllo 👋\ndata: world\r\n\r\ndata: two\r\r".utf8)
        let whole = try parse([text])

        #expect(whole.count == 2)
        #expect(whole.first?.data == "héllo 👋\nworld")
        for size in 1...7 {
            #expect(try parse(pieces(of: text, size: size)) == whole)
        }
    }

    @Test("comments, unknown fields and events without data are skipped; a field without colon is a name")
    func ignoredLines() throws {
        let events = try parse(": keep-alive\nfoo: bar\n\nevent: empty\n\ndata\n\ndata:  two spaces\n\n")

        #expect(events == [ServerSentEvent(data: ""), ServerSentEvent(data: " two spaces")])
    }

    @Test("a byte order mark at the start is skipped, even split across chunks; later it is content")
    func byteOrderMark() throws {
        let bom = Data([0xEF, 0xBB, 0xBF])
        let body = bom + Data("data: a\n\n".utf8)

        #expect(try parse([body]) == [ServerSentEvent(data: "a")])
        #expect(try parse(pieces(of: body, size: 1)) == [ServerSentEvent(data: "a")])
        #expect(try parse([Data("data: a\n\n".utf8), bom + Data("data: b\n\n".utf8)]).count == 1)
    }

    @Test("a line over the limit is a typed error, whole or arriving in pieces")
    func lineTooLong() throws {
        #expect(throws: ServerSentEventError.lineTooLong(limit: 16)) {
            try parse([Data("data: 0123456789abcdef\n\n".utf8)], maximumLineLength: 16)
        }
        let long = Data("data: ".utf8) + Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        #expect(throws: ServerSentEventError.lineTooLong(limit: 1 << 20)) {
            try parse(pieces(of: long, size: 64 * 1024))
        }
        #expect(try parse([Data("data: 0123456789\n\n".utf8)], maximumLineLength: 16).count == 1)
    }

    @Test("an event whose data lines together pass the size limit is a typed error, whatever the line limit")
    func eventTooLarge() throws {
        // Each line is far below the line limit; only the event as a whole is too large.
        let line = "data: " + String(repeating: "x", count: 1_000) + "\n"
        let tooLarge = Data(String(repeating: line, count: 1_100).utf8) + Data("\n".utf8)
        #expect(throws: ServerSentEventError.eventTooLarge(limit: 1 << 20)) { try parse([tooLarge]) }
        #expect(throws: ServerSentEventError.eventTooLarge(limit: 1 << 20)) {
            try parse(pieces(of: tooLarge, size: 64 * 1024))
        }

        var parser = ServerSentEventParser(maximumEventSize: 5)
        // "ab\ncd" is five bytes with the line break that joins them; one more byte is too many.
        #expect(try parser.parse(Data("data: ab\ndata: cd\n\n".utf8)) == [ServerSentEvent(data: "ab\ncd")])
        #expect(throws: ServerSentEventError.eventTooLarge(limit: 5)) {
            try parser.parse(Data("data: ab\ndata: cde\n\n".utf8))
        }
    }

    @Test("8 MiB of data lines in one event parse whole, in time proportional to their size", .timeLimit(.minutes(2)))
    func largeEventInLinearTime() async throws {
        // Joined by copying the data so far for every line, this took minutes (4 MiB: 29 s of CPU,
        // 8 MiB about four times that); the time limit is only a guard against that, far above what
        // the linear parse takes, even under ThreadSanitizer. The test yields between pieces, as a
        // body arriving from the network does: seconds of parsing without a suspension would hold
        // one of the cooperative pool's threads (two on a two-core machine) from every other test.
        let value = String(repeating: "y", count: 94)
        let lineCount = (8 << 20) / 100
        let body = Data(String(repeating: "data: \(value)\n", count: lineCount).utf8) + Data("\n".utf8)
        var parser = ServerSentEventParser(maximumEventSize: 16 << 20)
        var events: [ServerSentEvent] = []
        for piece in pieces(of: body, size: 64 * 1024) {
            events += try parser.parse(piece)
            await Task.yield()
        }
        try parser.finish()

        #expect(events.count == 1)
        let data = events.first?.data.utf8
        #expect(data?.count == lineCount * 95 - 1)
        #expect(events.first?.data.split(separator: "\n").allSatisfy { $0 == value } == true)
    }

    @Test("an id takes effect when its event ends, even without data; an id in an event cut short does not")
    func lastEventIDAppliedOnDispatch() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("id: 1\ndata: a\n\nid: 2\n".utf8)) == [ServerSentEvent(id: "1", data: "a")])
        // The event with id 2 has not ended: a reconnection now must resume after 1.
        #expect(parser.lastEventID == "1")
        #expect(
            try parser.parse(Data("\nid: 3\n\ndata: b\n\nid: bad\u{0}\n\n".utf8)) == [
                ServerSentEvent(id: "3", data: "b")
            ])
        // An event of only an id still sets it; one with NUL is ignored.
        #expect(parser.lastEventID == "3")

        var cut = ServerSentEventParser()
        _ = try cut.parse(Data("data: a\n\nid: 9\ndata: half".utf8))
        #expect(throws: ServerSentEventError.streamEndedMidEvent) { try cut.finish() }
        #expect(cut.lastEventID == nil)
    }

    @Test("a retry line sets the reconnection delay at once, in an event with no data too")
    func retryAlone() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Data("retry: 250\n".utf8)).isEmpty)
        #expect(parser.reconnectionDelay == .milliseconds(250))
        #expect(try parser.parse(Data("\nretry: 1x\n\n".utf8)).isEmpty)
        #expect(parser.reconnectionDelay == .milliseconds(250))
    }

    @Test("a stream cut inside an event is a typed error; one cut between events is not")
    func cutMidEvent() throws {
        #expect(throws: ServerSentEventError.streamEndedMidEvent) { try parse("data: a\n\ndata: b\n") }
        #expect(throws: ServerSentEventError.streamEndedMidEvent) { try parse("data: a\n\ndata: b") }
        #expect(try parse("data: a\n\n: bye").count == 1)
    }

    @Test("the async adapter yields the events of any sequence of chunks, and passes a cut on")
    func asyncAdapter() async throws {
        let stream = ByteStream(
            AsyncStream { continuation in
                for chunk in pieces(of: Data("data: 1\n\ndata: 2\r".utf8), size: 3) { continuation.yield(chunk) }
                continuation.yield(Data("\n\r\n".utf8))
                continuation.finish()
            })
        var received: [String] = []
        for try await event in stream.serverSentEvents() { received.append(event.data) }
        #expect(received == ["1", "2"])

        let cut = ByteStream(Data("data: 1\n\ndata: 2".utf8))
        var iterator = cut.serverSentEvents().makeAsyncIterator()
        #expect(try await iterator.next()?.data == "1")
        await #expect(throws: ServerSentEventError.streamEndedMidEvent) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }
}
