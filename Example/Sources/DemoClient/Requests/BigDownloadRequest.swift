import ECNetworking
import Foundation

/// `GET /big?bytes=N`: N bytes where byte `i` is `i % 256`, for the response size limit.
public struct BigDownloadRequest: DemoRequest {
    /// The raw body.
    public typealias Response = Data

    /// How many bytes the server sends.
    public let bytes: Int

    /// Creates a download of `bytes` bytes.
    public init(bytes: Int) {
        self.bytes = bytes
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `GET /big?bytes=N`.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            url: baseURL.appendingPathComponent("big"),
            queryItems: [URLQueryItem(name: "bytes", value: String(bytes))])
    }
}
