import ECNetworking
import Foundation

/// The library's side of the transfer scenario: `GET bytes/{byteCount}`, sent with
/// ``Network/download(_:to:priority:progress:)`` or ``Network/stream(_:)``, which never decode it.
struct GeneratedBodyRequest: Request {
    /// The body as it came, for the `Request` protocol; the scenario never gathers it.
    typealias Response = Data

    /// The length of the body asked for.
    let byteCount: Int

    /// `GET <baseURL>/bytes/{byteCount}`, no headers: the actions add them.
    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .get, url: GeneratedBody.url(byteCount: byteCount, baseURL: baseURL))
    }
}
