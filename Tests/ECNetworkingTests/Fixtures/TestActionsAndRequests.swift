import ECNetworking
import Foundation
import TestSupport

/// A request for `GET /users` that decodes `[User]`.
struct ListUsers: Request {
    typealias Response = [User]

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .get, url: baseURL.appendingPathComponent("users"))
    }
}

/// A request for `DELETE /users/{id}` with no response body.
struct DeleteUser: Request {
    typealias Response = Void
    let id: Int

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .delete, url: baseURL.appendingPathComponent("users/\(id)"))
    }
}

/// A test error with an identity, to check that errors pass through unchanged.
struct MarkerError: Error, Equatable {
    let id: Int
}
