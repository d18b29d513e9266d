internal import Hummingbird
internal import NIOCore

/// `GET /events?count=N&intervalMs=D`: Server-Sent Events (`text/event-stream`), events 1 to N
/// about D milliseconds apart, for subscriptions and their reconnection.
///
/// Each event has an `id` (its number), the type `tick` (`done` for the last) and two `data`
/// lines, `tick 3` and `of 5`; the first event of each connection carries `retry: R` (from
/// `&retryMs=R`, 1000 by default). A comment opens the stream and another keeps it alive halfway
/// between events. A request with `Last-Event-ID: K` resumes at event K + 1; an ID the server
/// did not send starts again at 1. `&dropAfter=K` closes the connection abruptly half an interval
/// after event K, on whichever connection sends it, so a client has something to reconnect after;
/// `&cutAfter=K` ends the response cleanly after event K and half of the next one, as a server
/// stopping in the middle of an event would.
///
/// A client that goes away before the last event is recorded (``RequestRecorder/abandonedStreams``).
struct EventStreamRoutes {
    // Hummingbird re-exports `HTTPFields` but not `HTTPField`, whose `Name` this is.
    static let lastEventID = HTTPFields.Element.Name("Last-Event-ID")!
    let recorder: RequestRecorder

    func register(on router: Router<BasicRequestContext>) {
        router.get("events") { request, _ in
            let count = try request.integerQueryParameter("count", in: 0...100_000, default: 5)
            let interval = try request.integerQueryParameter("intervalMs", in: 0...60_000, default: 500)
            let retry = try request.integerQueryParameter("retryMs", in: 0...600_000, default: 1_000)
            let dropAfter = try request.integerQueryParameter("dropAfter", in: 1...max(1, count))
            let cutAfter = try request.integerQueryParameter("cutAfter", in: 1...max(1, count - 1))
            let lastEventID = request.headers[Self.lastEventID].flatMap { Int($0) }
            let first = lastEventID.map { (0...count).contains($0) ? $0 + 1 : 1 } ?? 1

            let body = ResponseBody.streamed(path: request.uri.path, recorder: recorder) { writer in
                try await writer.write(ByteBuffer(string: ": events \(first) to \(count)\n\n"))
                for id in stride(from: first, through: count, by: 1) {
                    if id > first {
                        try await Task.sleep(for: .milliseconds(interval / 2))
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        try await Task.sleep(for: .milliseconds(interval - interval / 2))
                    }
                    var event = id == first ? "retry: \(retry)\n" : ""
                    event +=
                        "id: \(id)\nevent: \(id == count ? "done" : "tick")\ndata: tick \(id)\ndata: of \(count)\n\n"
                    try await writer.write(ByteBuffer(string: event))
                    if id == dropAfter {
                        // Half an interval later, while the stream is quiet, as a connection breaks.
                        try await Task.sleep(for: .milliseconds(interval / 2))
                        throw DroppedConnection()
                    }
                    if id == cutAfter, id < count {
                        // The body ends cleanly, the next event half written.
                        try await writer.write(ByteBuffer(string: "id: \(id + 1)\ndata: tick \(id + 1)\n"))
                        return
                    }
                }
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
        }
    }
}
