/// One entry of the built-in logging: what a ``LogSink`` receives, whether it writes text or hands
/// the entry to a structured logger such as swift-log (the `Logging` trait's `LogSink.logger(_:)`).
///
/// Every value in it is redacted with ``NetworkConfiguration/sensitiveData`` before the sink sees
/// it, exactly as the text lines are, so a sink may forward any field as it is.
public struct NetworkLogEvent: Sendable {
    /// How much an entry matters: requests are `debug`, answers `info` (`warning` from status 400
    /// on), an answer from a response store `info`, a cancelled send `notice` and any other failed
    /// send `error`.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// A request on its way out.
        case debug
        /// An answer, from the network or a response store.
        case info
        /// A send that ended because it was cancelled.
        case notice
        /// An answer whose status says the request failed (400 and above).
        case warning
        /// A send that failed.
        case error

        /// Orders levels from `debug` to `error`, so a sink can keep entries above a threshold.
        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }

    /// What the entry is about.
    public enum Kind: String, Sendable {
        /// A request went on the wire (or joined an identical one).
        case request
        /// A response arrived.
        case response
        /// A send ended in an error, before or after a response.
        case failure
        /// A response store answered without a network call.
        case storedAnswer
        /// Text written straight to the sink through ``LogSink/write``.
        case message
    }

    /// How much the entry matters.
    public var level: Level
    /// What the entry is about.
    public var kind: Kind
    /// The entry's first line, such as `--> GET https://api.example.com/v1/users`.
    public var message: String
    /// The lines under it: headers, body previews and the cURL command.
    public var details: [String]
    /// The send this entry belongs to, the same for all its attempts and for no other send of the
    /// process; `nil` for an answer from a response store, which is no send.
    public var sendID: UInt64?
    /// Which attempt of the send, from 1; `nil` when the send failed before its first attempt
    /// was under way, and for an answer from a response store.
    public var attempt: Int?
    /// The request's method (escaped when it is not an HTTP token).
    public var method: String
    /// The request's URL, redacted: no userinfo, sensitive query values replaced.
    public var url: String
    /// The response's status code, when a response arrived.
    public var statusCode: Int?
    /// How long the transport took for a response; how long the send ran for a failure.
    public var duration: Duration?

    /// Creates an entry; only `message` is required, for text written without a send.
    public init(
        level: Level = .info,
        kind: Kind = .message,
        message: String,
        details: [String] = [],
        sendID: UInt64? = nil,
        attempt: Int? = nil,
        method: String = "",
        url: String = "",
        statusCode: Int? = nil,
        duration: Duration? = nil
    ) {
        self.level = level
        self.kind = kind
        self.message = message
        self.details = details
        self.sendID = sendID
        self.attempt = attempt
        self.method = method
        self.url = url
        self.statusCode = statusCode
        self.duration = duration
    }

    /// The entry as the text sinks have always received it: the message, then each detail line.
    public var text: String {
        guard !details.isEmpty else { return message }
        // Appended in place: joining a new array of every line costs a copy of it.
        var text = message
        text.reserveCapacity(details.reduce(message.utf8.count) { $0 + 1 + $1.utf8.count })
        for detail in details {
            text += "\n"
            text += detail
        }
        return text
    }

    /// The structured fields, with stable key names (those of OpenTelemetry where one exists),
    /// in a fixed order; fields without a value are left out.
    public var metadata: [(key: String, value: String)] {
        var fields: [(key: String, value: String)] = []
        if let sendID { fields.append(("send.id", String(sendID))) }
        if let attempt { fields.append(("send.attempt", String(attempt))) }
        if !method.isEmpty { fields.append(("http.request.method", method)) }
        if !url.isEmpty { fields.append(("url.full", url)) }
        if let statusCode { fields.append(("http.response.status_code", String(statusCode))) }
        if let duration {
            fields.append(("duration_ms", String(Int((duration.seconds * 1000).rounded()))))
        }
        return fields
    }
}
