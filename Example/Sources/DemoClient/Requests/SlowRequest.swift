import DemoServer
import ECNetworking
import Foundation

/// `GET /slow?ms=N`: answers after N milliseconds, for cancellation, timeouts and the concurrency limit.
public struct SlowRequest: DemoRequest {
    /// How long the server says it waited.
    public typealias Response = SlowReply

    /// How long the server waits before answering.
    public let milliseconds: Int
    /// How long one attempt may take, or `nil` for the configuration's timeout.
    public let timeout: Duration?

    /// Creates a request the server answers after `milliseconds`, given up after `timeout`.
    public init(milliseconds: Int, timeout: Duration? = nil) {
        self.milliseconds = milliseconds
        self.timeout = timeout
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `GET /slow?ms=N`.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            url: baseURL.appendingPathComponent("slow"),
            queryItems: [URLQueryItem(name: "ms", value: String(milliseconds))],
            timeout: timeout)
    }
}
