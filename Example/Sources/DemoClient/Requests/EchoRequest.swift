import DemoServer
import ECNetworking
import Foundation

/// `GET /echo`: the server answers with the method, path, query and headers it received, which
/// shows what the actions put on the wire.
public struct EchoRequest: DemoRequest {
    /// What the server received.
    public typealias Response = EchoReply

    /// Whether the bearer token is attached; `true` by default, so the echo shows it arriving.
    public let requiresAuthentication: Bool

    /// Creates an echo, authenticated unless `requiresAuthentication` is `false`.
    public init(requiresAuthentication: Bool = true) {
        self.requiresAuthentication = requiresAuthentication
    }

    /// Builds `GET /echo`.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("echo"))
    }
}
