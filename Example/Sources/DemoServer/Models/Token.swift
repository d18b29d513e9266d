/// The reply to a successful `POST /login`.
public struct Token: Codable, Sendable, Equatable {
    /// The bearer token to send as `Authorization: Bearer <token>`.
    public var token: String
    /// Whole seconds the token stays valid, rounded down.
    ///
    /// Rounded down so that a client trusting it never sends a token the server already considers expired;
    /// a lifetime below one second therefore reads as `0`.
    public var expiresIn: Int

    /// Creates a token reply.
    public init(token: String, expiresIn: Int) {
        self.token = token
        self.expiresIn = expiresIn
    }
}
