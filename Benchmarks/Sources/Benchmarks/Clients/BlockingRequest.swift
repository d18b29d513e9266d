import ECNetworking
import Foundation

/// The request that holds the only slot in the cancellation scenario. A type of its own, so that
/// `cancelAll(of: ListUsersRequest.self)` cancels the queued sends and leaves this one.
struct BlockingRequest: Request {
    /// Never delivered: the request only ends by cancellation.
    typealias Response = Data

    /// `GET <baseURL>/block`, which the delayed session never answers.
    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .get, url: baseURL.appendingPathComponent(DelayedSession.blockingPath))
    }
}
