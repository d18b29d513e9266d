import DemoServer
import ECNetworking
import Foundation

/// `GET /users`: the users, optionally only those online or offline.
public struct ListUsersRequest: DemoRequest {
    /// The users, ordered by identifier.
    public typealias Response = [User]

    /// `true` for online users only, `false` for offline ones, `nil` for everyone.
    public let online: Bool?

    /// Creates a listing, filtered by `online` unless it is `nil`.
    public init(online: Bool? = nil) {
        self.online = online
    }

    /// Builds `GET /users`, with `?online=` only when filtering.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("users"))
        if let online {
            request.queryItems = [URLQueryItem(name: "online", value: String(online))]
        }
        return request
    }
}
