/// The body of `POST /users`: the fields a client chooses when creating a user.
public struct NewUser: Codable, Sendable, Equatable {
    /// The display name; must not be empty.
    public var name: String
    /// The email address; must contain `@`.
    public var email: String

    /// Creates the body of a user creation request.
    public init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}
