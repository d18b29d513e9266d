/// A user account as the demo API returns it.
public struct User: Codable, Sendable, Equatable, Hashable {
    /// The identifier the server assigned; stable for the lifetime of the server.
    public var id: Int
    /// The display name.
    public var name: String
    /// The email address.
    public var email: String
    /// Whether the user is currently online; `GET /users?online=` filters on it.
    public var online: Bool

    /// Creates a user.
    public init(id: Int, name: String, email: String, online: Bool) {
        self.id = id
        self.name = name
        self.email = email
        self.online = online
    }
}

extension User {
    /// The users every new server starts with: two online, two offline.
    public static let seed: [User] = [
        User(id: 1, name: "Ada Lovelace", email: "ada@example.com", online: true),
        User(id: 2, name: "Grace Hopper", email: "grace@example.com", online: false),
        User(id: 3, name: "Alan Turing", email: "alan@example.com", online: true),
        User(id: 4, name: "Edsger Dijkstra", email: "edsger@example.com", online: false),
    ]
}
