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
    /// JSON object keys and form field names whose values are replaced by `<redacted>` in logged
    /// bodies and the cURL line, compared without regard to case. By default common credential
    /// names such as `password`, `token` and `client_secret`.
    public var redactedBodyFields: Set<String>
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
        redactedBodyFields: Set<String> = [
            "password", "passwd", "secret", "token", "access_token", "refresh_token", "id_token", "accessToken",
            "refreshToken", "idToken", "client_secret", "clientSecret", "api_key", "apiKey",
        ],
        bodyPreviewLimit: Int = 1024,
        includesCURLCommand: Bool = true
    ) {
        self.sink = sink
        self.redactedHeaders = redactedHeaders
        self.redactedQueryParameters = redactedQueryParameters
        self.redactedBodyFields = redactedBodyFields
        self.bodyPreviewLimit = bodyPreviewLimit
        self.includesCURLCommand = includesCURLCommand
    }
}
