/// What the built-in logging writes. Which secrets it hides is
/// ``NetworkConfiguration/sensitiveData``, the same list the redirect handling and the metrics
/// hook use.
public struct LoggingOptions: Sendable {
    /// Where log entries go; standard output by default.
    public var sink: LogSink
    /// How many bytes of a body are shown before it is cut; 1,024 by default.
    public var bodyPreviewLimit: Int
    /// Whether the request entry includes a cURL command that repeats it (redacted too).
    public var includesCURLCommand: Bool
    /// The least important entries written; `debug` by default, which writes all of them.
    /// `info` leaves out the request entries and keeps answers and failures.
    public var minimumLevel: NetworkLogEvent.Level

    /// Creates options; every argument has the default described on its property.
    public init(
        sink: LogSink = .standardOutput,
        bodyPreviewLimit: Int = 1024,
        includesCURLCommand: Bool = true,
        minimumLevel: NetworkLogEvent.Level = .debug
    ) {
        self.sink = sink
        self.bodyPreviewLimit = bodyPreviewLimit
        self.includesCURLCommand = includesCURLCommand
        self.minimumLevel = minimumLevel
    }
}
