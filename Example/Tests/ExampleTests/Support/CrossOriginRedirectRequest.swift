import DemoClient
import DemoServer
import ECNetworking
import Foundation

/// `GET /redirect?to=…` pointing at another server's `/echo`: authenticated, so that the first
/// server receives a token the redirect must not carry on.
struct CrossOriginRedirectRequest: DemoRequest {
    typealias Response = EchoReply

    /// Where the first server redirects to.
    let target: URL

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            url: baseURL.appendingPathComponent("redirect"),
            queryItems: [URLQueryItem(name: "to", value: target.absoluteString)])
    }
}
