/// Where the built-in logging writes its entries: standard output by default, or anything else in
/// one line, such as `os.Logger`, without this package depending on it. With the `Logging` trait,
/// `LogSink.logger(_:)` hands each entry to a swift-log `Logger` as a structured record.
///
/// ```swift
/// configuration.logSink = LogSink { line in logger.info("\(line)") }
/// ```
///
/// A sink made from a text closure gets each entry's ``NetworkLogEvent/text``; one made with
/// ``events(_:)`` gets the entry itself, with its level and metadata.
public struct LogSink: Sendable {
    /// Writes one log entry as text (which may span several lines).
    public let write: @Sendable (String) -> Void
    /// Receives one entry with its level and metadata.
    private let receive: @Sendable (NetworkLogEvent) -> Void
    /// Whether the sink keeps an entry of a level, asked before the entry is built: a swift-log
    /// logger's level is known, and an entry it would drop costs its redacted URL, headers and
    /// cURL line for nothing.
    let admits: @Sendable (NetworkLogEvent.Level) -> Bool

    /// Creates a sink that writes each entry as text.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.receive = { write($0.text) }
        self.admits = { _ in true }
    }

    /// A sink that receives each entry with its level and metadata; text written through
    /// ``write`` arrives as an `info` entry of kind ``NetworkLogEvent/Kind/message``.
    ///
    /// ```swift
    /// configuration.logSink = .events { event in
    ///     if event.level >= .warning { alerts.record(event.message, fields: event.metadata) }
    /// }
    /// ```
    public static func events(_ receive: @escaping @Sendable (NetworkLogEvent) -> Void) -> LogSink {
        LogSink(write: { receive(NetworkLogEvent(message: $0)) }, receive: receive)
    }

    /// A sink that receives only the entries `admits` lets through; `admits` is asked before an
    /// entry is built.
    static func events(
        admitting admits: @escaping @Sendable (NetworkLogEvent.Level) -> Bool,
        _ receive: @escaping @Sendable (NetworkLogEvent) -> Void
    ) -> LogSink {
        LogSink(write: { receive(NetworkLogEvent(message: $0)) }, receive: receive, admits: admits)
    }

    private init(
        write: @escaping @Sendable (String) -> Void,
        receive: @escaping @Sendable (NetworkLogEvent) -> Void,
        admits: @escaping @Sendable (NetworkLogEvent.Level) -> Bool = { _ in true }
    ) {
        self.write = write
        self.receive = receive
        self.admits = admits
    }

    /// Hands `event` to the sink, as text or as it is, depending on how the sink was made.
    public func log(_ event: NetworkLogEvent) {
        receive(event)
    }

    /// Prints each entry to standard output.
    public static let standardOutput = LogSink { print($0) }

    /// Drops every entry.
    public static let discard = LogSink { _ in }
}
