import ECNetworking
import Foundation

/// The library's side of every scenario: `GET users`, decoded as `[User]` by the built-in JSON
/// decoding. The URL is built on every send, as the hand-written client builds its own.
struct ListUsersRequest: Request {
    /// The decoded users list.
    typealias Response = [User]

    /// `GET <baseURL>/users`, no headers: the actions add them.
    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .get, url: baseURL.appendingPathComponent(UsersFixture.path))
    }
}
