import DemoServer
import ECNetworking
import Foundation

/// `GET /flaky`: fails with `503 Service Unavailable` and `Retry-After: 1` a set number of times,
/// then succeeds; the way to watch `RetryPolicy` honour `Retry-After`.
public struct FlakyRequest: DemoRequest {
    /// The success body, which says which attempt succeeded.
    public typealias Response = FlakyReply

    /// The server counts attempts per key; a fresh key starts failing again.
    public let key: String
    /// How many attempts fail before one succeeds, or `nil` for the server's configured count.
    public let failures: Int?

    /// Creates a request that fails `failures` times for `key` before it succeeds.
    ///
    /// The default key is random, so that each new request starts with failures even against a
    /// server that has seen earlier runs; eight hexadecimal digits keep the traced URL readable.
    public init(key: String = String(UUID().uuidString.prefix(8)).lowercased(), failures: Int? = 1) {
        self.key = key
        self.failures = failures
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `GET /flaky?key=…&failures=…`.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("flaky"))
        request.queryItems = [URLQueryItem(name: "key", value: key)]
        if let failures {
            request.queryItems.append(URLQueryItem(name: "failures", value: String(failures)))
        }
        return request
    }
}
