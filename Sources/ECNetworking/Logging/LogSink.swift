/// Where the logging action writes its lines: standard output by default, or anything else in
/// one line, such as swift-log or `os.Logger`, without this package depending on them.
///
/// ```swift
/// configuration.logSink = LogSink { line in logger.info("\(line)") }
/// ```
public struct LogSink: Sendable {
    /// Writes one log entry (which may span several lines).
    public let write: @Sendable (String) -> Void

    /// Creates a sink from a closure.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Prints each entry to standard output.
    public static let standardOutput = LogSink { print($0) }

    /// Drops every entry.
    public static let discard = LogSink { _ in }
}
