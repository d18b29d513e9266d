import DemoServer
import ECNetworking
import Foundation

/// `GET /mislabelled?type=T`: JSON the server labels `Content-Type: T`, or (`page: true`) an HTML
/// sign-in page, to show what the library does with a body labelled other than JSON: it decodes
/// it, and fails with ``NetworkError/unacceptableContentType(_:)`` only when it does not decode,
/// or at once when the request asks for a strict check.
public struct MislabelledRequest: DemoRequest {
    /// The JSON reply.
    public typealias Response = MislabelledReply

    /// The `Content-Type` the server sends.
    public let contentType: String
    /// Whether the server sends an HTML page instead of the JSON reply.
    public let page: Bool
    /// Whether the request sets ``NetworkRequest/validatesContentType`` to `true`, so a body of
    /// another type fails without being decoded.
    public let strict: Bool

    /// Creates a request for JSON (or, with `page`, an HTML page) labelled `contentType`
    /// (`text/html` by default, as a proxy's error page would come).
    public init(contentType: String = "text/html; charset=utf-8", page: Bool = false, strict: Bool = false) {
        self.contentType = contentType
        self.page = page
        self.strict = strict
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `GET /mislabelled?type=T`, with `page=1` for the HTML page.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        var queryItems = [URLQueryItem(name: "type", value: contentType)]
        if page { queryItems.append(URLQueryItem(name: "page", value: "1")) }
        var request = NetworkRequest(url: baseURL.appendingPathComponent("mislabelled"), queryItems: queryItems)
        if strict { request.validatesContentType = true }
        return request
    }
}
