import ECNetworking
import Foundation

/// `DELETE /users/{id}`: removes a user; the server answers `204 No Content`, hence `Void`.
public struct DeleteUserRequest: DemoRequest {
    /// Nothing: success is the whole answer.
    public typealias Response = Void

    /// The identifier of the user to delete.
    public let id: Int

    /// Creates a deletion of the user with identifier `id`.
    public init(id: Int) {
        self.id = id
    }

    /// Builds `DELETE /users/{id}`.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for an identifier below 1, which the
    ///   server never assigns, so a bug fails here instead of reaching the server.
    public func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        guard id > 0 else { throw NetworkError.invalidRequest(reason: "user identifiers start at 1") }
        return NetworkRequest(method: .delete, url: baseURL.appendingPathComponent("users/\(id)"))
    }
}
