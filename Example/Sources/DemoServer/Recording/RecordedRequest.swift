/// One request as the server received it.
public struct RecordedRequest: Sendable, Equatable {
    /// The request method, for example `GET`.
    public var method: String
    /// The path without the query.
    public var path: String
    /// The raw query string without the leading `?`, or `nil` when there was none.
    public var query: String?
    /// The request headers.
    public var headers: RecordedHeaders

    /// Creates a recorded request.
    public init(method: String, path: String, query: String?, headers: RecordedHeaders) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }
}
