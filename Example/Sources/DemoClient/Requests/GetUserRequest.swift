import DemoServer
import ECNetworking
import Foundation

/// `GET /users/{id}`: one user; an unknown identifier is a `404` with an ``APIError`` body.
public struct GetUserRequest: DemoRequest {
    /// The user with that identifier.
    public typealias Response = User

    /// The identifier of the user to read.
    public let id: Int

    /// Creates a read of the user with identifier `id`.
    public init(id: Int) {
        self.id = id
    }

    /// Builds `GET /users/{id}`.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("users/\(id)"))
    }
}
