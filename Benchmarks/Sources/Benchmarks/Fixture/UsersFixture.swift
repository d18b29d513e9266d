import Foundation

/// The response body of every scenario: a JSON list of users of about 200 bytes, encoded once.
enum UsersFixture {
    /// The path the list is served under, relative to the base URL.
    static let path = "users"

    /// The users in the list.
    static let users: [User] = [
        User(id: 1, name: "Ada Lovelace", online: true),
        User(id: 2, name: "Alan Turing", online: false),
        User(id: 3, name: "Grace Hopper", online: true),
        User(id: 4, name: "Edsger Dijkstra", online: false),
    ]

    /// The JSON body; encoded with sorted keys so its bytes are the same on every run.
    static let body: Data = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try! encoder.encode(users)
    }()

    /// Fails when a decoded list is not the fixture, so no scenario can count a wrong answer as done.
    static func check(_ decoded: [User]) throws {
        guard decoded.count == users.count else { throw BenchmarkError.unexpectedBody(count: decoded.count) }
    }
}
