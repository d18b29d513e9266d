/// What the built-in logging action writes and what it hides.
public struct LoggingOptions: Sendable {
    /// Where log entries go; standard output by default.
    public var sink: LogSink
    /// Header names whose values are replaced by `<redacted>`, compared without regard to case.
    /// By default `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`.
    public var redactedHeaders: Set<String>
    /// Query parameter names whose values are replaced by `<redacted>`, compared without regard
    /// to case. By default common credential names such as `access_token` and `api_key`.
    public var redactedQueryParameters: Set<String>
    /// How many bytes of a body are shown before it is cut; 1,024 by default.
    public var bodyPreviewLimit: Int
    /// Whether the request entry includes a cURL command that repeats it (redacted too).
    public var includesCURLCommand: Bool

    /// Creates options; every argument has the default described on its property.
    public init(
        sink: LogSink = .standardOutput,
        redactedHeaders: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"],
        redactedQueryParameters: Set<String> = [
            "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "password",
            "client_secret", "secret", "signature",
        ],
        bodyPreviewLimit: Int = 1024,
        includesCURLCommand: Bool = true
    ) {
        self.sink = sink
        self.redactedHeaders = redactedHeaders
        self.redactedQueryParameters = redactedQueryParameters
        self.bodyPreviewLimit = bodyPreviewLimit
        self.includesCURLCommand = includesCURLCommand
    }
}
