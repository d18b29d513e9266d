import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP response: status, headers, the whole body, and how long it took.
public struct NetworkResponse: Sendable {
    /// The HTTP status code, such as 200.
    public var statusCode: Int
    /// The headers; look them up by name in any case (`headers["etag"]`), since Linux re-cases them.
    public var headers: HTTPHeaders
    /// The body; empty when there was none.
    public var body: Data
    /// The URL that answered, after any redirects.
    public var url: URL?
    /// The response as the session delivered it, when it came from a session.
    public var httpURLResponse: HTTPURLResponse?
    /// The request as it was sent: after the will-begin actions, with default headers, the
    /// `Content-Type` and the encoded body.
    public var request: NetworkRequest? {
        get { sentRequest?.request }
        set { sentRequest = newValue.map(SentRequest.init) }
    }
    /// How long the stages took; see ``NetworkTimings``.
    public var timings: NetworkTimings
    /// The body of a streamed send, still on the wire, which the response's head travels through
    /// the stages without; `nil` for every other response.
    var unreadBody: StreamedBody?

    /// ``request``, behind one reference. Every completed action's `.proceed(response)` copies the
    /// response, and the request holds several references of its own: as one shared, immutable
    /// object it costs each copy one.
    private var sentRequest: SentRequest?

    /// The body; another name for ``body``.
    public var data: Data { body }

    /// Creates a response from its parts, for actions that replace a response and for tests.
    public init(
        statusCode: Int,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        url: URL? = nil,
        httpURLResponse: HTTPURLResponse? = nil,
        request: NetworkRequest? = nil,
        timings: NetworkTimings = NetworkTimings()
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
        self.httpURLResponse = httpURLResponse
        self.sentRequest = request.map(SentRequest.init)
        self.timings = timings
    }

    /// Creates a response from what a session delivered.
    public init(_ response: HTTPURLResponse, body: Data, request: NetworkRequest? = nil) {
        self.init(
            statusCode: response.statusCode,
            headers: HTTPHeaders(response),
            body: body,
            url: response.url,
            httpURLResponse: response,
            request: request
        )
    }

    /// Creates a response from a transport's head and the body read from it; `requestedURL`
    /// stands in for a transport that does not say which URL answered.
    init(_ response: TransportResponse, body: Data, requestedURL: URL) {
        self.init(
            statusCode: response.statusCode,
            headers: response.headers,
            body: body,
            url: response.url ?? requestedURL,
            httpURLResponse: response.httpURLResponse
        )
    }

    /// Whether the status is in 200..<300.
    public var isSuccessful: Bool { (200..<300).contains(statusCode) }

    /// Decodes the body as JSON, for example an API's error body.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: body)
    }
}

extension NetworkResponse {
    /// The ``request``'s ``NetworkRequest/validatesContentType``, or `nil` without a request: read
    /// in place, where ``request`` copies the whole request out.
    var requestValidatesContentType: Bool? {
        sentRequest?.request.validatesContentType
    }

    /// The value of the ``request``'s header `name`, read in place.
    func requestHeader(_ name: String) -> String? {
        sentRequest?.request.headers[name]
    }
}

/// A response's request, shared by every copy of the response; see `NetworkResponse.sentRequest`.
private final class SentRequest: Sendable {
    let request: NetworkRequest

    init(_ request: NetworkRequest) {
        self.request = request
    }
}
