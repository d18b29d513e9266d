/// The body of `POST /login`.
public struct Credentials: Codable, Sendable, Equatable {
    /// The account name.
    public var username: String
    /// The account password.
    public var password: String

    /// Creates login credentials.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}
