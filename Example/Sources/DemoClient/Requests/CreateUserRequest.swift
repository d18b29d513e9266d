import DemoServer
import ECNetworking
import Foundation

/// `POST /users`: creates a user (`201`); invalid fields are a `422` whose ``APIError`` names them.
public struct CreateUserRequest: DemoRequest {
    /// The user as created, with the identifier the server assigned.
    public typealias Response = User

    /// The display name; the server rejects an empty one.
    public let name: String
    /// The email address; the server rejects one without `@`.
    public let email: String

    /// Creates a request for a user named `name` with address `email`.
    public init(name: String, email: String) {
        self.name = name
        self.email = email
    }

    /// Builds `POST /users` with a ``NewUser`` JSON body.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            method: .post,
            url: baseURL.appendingPathComponent("users"),
            body: NewUser(name: name, email: email))
    }
}
