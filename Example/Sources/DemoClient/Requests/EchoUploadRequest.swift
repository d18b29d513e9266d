import ECNetworking
import Foundation

/// `POST /upload?echo=1`: uploads raw bytes and receives them back, for a large round trip.
public struct EchoUploadRequest: DemoRequest {
    /// The bytes as the server sent them back.
    public typealias Response = Data

    /// The bytes to upload.
    public let body: Data

    /// Creates an upload of `body` that the server echoes.
    public init(body: Data) {
        self.body = body
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `POST /upload?echo=1` with an `application/octet-stream` body.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            method: .post,
            url: baseURL.appendingPathComponent("upload"),
            body: .data(body),
            queryItems: [URLQueryItem(name: "echo", value: "1")])
    }
}
