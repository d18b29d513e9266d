import DemoServer
import ECNetworking
import Foundation

/// `GET /mislabelled?type=T`: JSON the server labels `Content-Type: T`, to show the library
/// refusing a type the request does not accept, before decoding, with
/// ``NetworkError/unacceptableContentType(_:)``.
public struct MislabelledRequest: DemoRequest {
    /// The JSON reply, decoded only when its type is acceptable.
    public typealias Response = MislabelledReply

    /// The `Content-Type` the server sends.
    public let contentType: String

    /// Creates a request for JSON labelled `contentType` (`text/html` by default, as a proxy's
    /// error page would come).
    public init(contentType: String = "text/html; charset=utf-8") {
        self.contentType = contentType
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `GET /mislabelled?type=T`.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            url: baseURL.appendingPathComponent("mislabelled"),
            queryItems: [URLQueryItem(name: "type", value: contentType)])
    }
}
