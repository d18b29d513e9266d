// A `text/event-stream` body as a server sends it.
//
// Input: one control byte (how the body is cut into chunks, and the line limit), then the body.
// Checks: parsing never crashes; the events, the last event ID, the reconnection delay and the
// outcome of `finish()` do not depend on where the chunks are cut (empty chunks included); and the
// events, written back out as an event stream, parse to themselves.
//
// Written against the parser's API of `init(maximumLineLength:)`, `parse(_:)` and `finish()`; the
// parser is being rewritten, so this may need adapting to its new errors.

import Foundation

@testable import ECNetworking

enum ServerSentEventsTarget: FuzzTarget {
    static let name = "sse"
    static let warmUp = Array("\u{1}id: 1\nevent: e\ndata: a\r\ndata: b\rretry: 10\n\n".utf8)

    struct Outcome {
        var events: [ServerSentEvent] = []
        /// The error `parse` threw, after which the parser may not be used.
        var parseError: ServerSentEventError?
        var finishError: ServerSentEventError?
        var lastEventID: String?
        var reconnectionDelay: Duration?
    }

    static func run(_ input: [UInt8]) {
        guard let control = input.first else { return }
        let body = input.dropFirst()
        // Small limits reach the line-too-long path; one in two inputs has the default.
        let limit = control & 0x80 == 0 ? ServerSentEventParser.defaultMaximumLineLength : Int(control & 0x3F) + 1
        let whole = parse([Data(body)], limit: limit)
        let cut = parse(chunks(of: body, seed: control), limit: limit)

        check(
            (whole.parseError == nil) == (cut.parseError == nil),
            "a line over the limit threw for one cut of the body only: \(whole.parseError as Any) / \(cut.parseError as Any)"
        )
        guard whole.parseError == nil else { return }
        check(same(whole.events, cut.events), "events depend on the chunks: \(whole.events) / \(cut.events)")
        check(whole.lastEventID == cut.lastEventID, "last event ID depends on the chunks")
        check(whole.reconnectionDelay == cut.reconnectionDelay, "reconnection delay depends on the chunks")
        check(whole.finishError == cut.finishError, "finish() depends on the chunks")

        let written = serialize(whole.events)
        let reread = parse([Data(written.utf8)], limit: ServerSentEventParser.defaultMaximumLineLength)
        check(
            reread.parseError == nil && reread.finishError == nil && same(reread.events, whole.events),
            "events written back out do not parse to themselves: \(whole.events) -> \(written.debugDescription)")
    }

    static func parse(_ chunks: [Data], limit: Int) -> Outcome {
        var parser = ServerSentEventParser(maximumLineLength: limit)
        var outcome = Outcome()
        do {
            for chunk in chunks { outcome.events += try parser.parse(chunk) }
        } catch {
            outcome.parseError = error as? ServerSentEventError
            check(outcome.parseError != nil, "parse threw an error of another type: \(error)")
            return outcome
        }
        do {
            try parser.finish()
        } catch {
            outcome.finishError = error as? ServerSentEventError
            check(outcome.finishError != nil, "finish threw an error of another type: \(error)")
        }
        outcome.lastEventID = parser.lastEventID
        outcome.reconnectionDelay = parser.reconnectionDelay
        return outcome
    }

    /// Events equal byte for byte: `String`'s `==` would also call canonically equivalent text equal.
    static func same(_ left: [ServerSentEvent], _ right: [ServerSentEvent]) -> Bool {
        left.count == right.count
            && zip(left, right).allSatisfy { left, right in
                left.id.map { Array($0.utf8) } == right.id.map { Array($0.utf8) }
                    && Array(left.event.utf8) == Array(right.event.utf8)
                    && Array(left.data.utf8) == Array(right.data.utf8) && left.retry == right.retry
            }
    }

    /// The events as a server would write them.
    static func serialize(_ events: [ServerSentEvent]) -> String {
        var text = ""
        for event in events {
            if let id = event.id { text += "id: \(id)\n" }
            text += "event: \(event.event)\n"
            for line in event.data.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
                text += "data: \(ECNetworkingFuzz.text(line))\n"
            }
            if let retry = event.retry {
                let (seconds, attoseconds) = retry.components
                text += "retry: \(seconds * 1000 + attoseconds / 1_000_000_000_000_000)\n"
            }
            text += "\n"
        }
        return text
    }
}
