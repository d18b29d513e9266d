/// The reply of `/echo`: what the server received, so client tests can see what went over the wire.
public struct EchoReply: Codable, Sendable, Equatable {
    /// The request method, for example `POST`.
    public var method: String
    /// The path without the query, for example `/echo`.
    public var path: String
    /// The raw (still percent-encoded) query string without the leading `?`, or `nil` when there was none.
    public var query: String?
    /// The request headers keyed by lowercased name; repeated headers are joined with `", "`.
    public var headers: [String: String]
    /// The request body decoded as UTF-8 (invalid bytes replaced); empty when there was no body.
    public var body: String

    /// Creates an echo reply.
    public init(method: String, path: String, query: String?, headers: [String: String], body: String) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}
