/// The JSON body of every error response of the demo API.
public struct APIError: Codable, Sendable, Equatable, Error {
    /// A stable, machine-readable code such as `invalid_credentials`, `token_expired` or `not_found`.
    public var error: String
    /// A human-readable explanation.
    public var message: String
    /// Per-field validation messages keyed by field name; present only on `422 Unprocessable Content`.
    public var fields: [String: String]?

    /// Creates an error body.
    public init(error: String, message: String, fields: [String: String]? = nil) {
        self.error = error
        self.message = message
        self.fields = fields
    }
}
