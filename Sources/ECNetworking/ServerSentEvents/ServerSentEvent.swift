/// One event of a `text/event-stream` response (Server-Sent Events), as the HTML standard
/// defines them.
public struct ServerSentEvent: Hashable, Sendable {
    /// The last event ID the stream set, at or before this event, or `nil` when none was set; a
    /// client reconnecting sends it back as `Last-Event-ID`.
    public var id: String?
    /// The event type, `message` unless the event named another.
    public var event: String
    /// The data: the event's `data` lines joined with `"\n"`.
    public var data: String
    /// The reconnection delay a `retry` line in this event set, if any.
    public var retry: Duration?

    /// An event, as a server would send it.
    public init(id: String? = nil, event: String = "message", data: String, retry: Duration? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }
}
