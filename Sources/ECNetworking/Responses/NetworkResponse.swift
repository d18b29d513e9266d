import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP response: status, headers, the whole body, and how long it took.
public struct NetworkResponse: Sendable {
    // In one copy-on-write object: the response is handed from the transport through every
    // completed action to the caller, and a copy then costs one reference count, not one per field.
    private var storage: CopyOnWrite<Fields>

    /// The HTTP status code, such as 200.
    public var statusCode: Int {
        get { storage.value.statusCode }
        _modify { yield &storage.unique.value.statusCode }
    }
    /// The headers; look them up by name in any case (`headers["etag"]`), since Linux re-cases them.
    public var headers: HTTPHeaders {
        get { storage.value.headers }
        _modify { yield &storage.unique.value.headers }
    }
    /// The body; empty when there was none.
    public var body: Data {
        get { storage.value.body }
        _modify { yield &storage.unique.value.body }
    }
    /// The URL that answered, after any redirects.
    public var url: URL? {
        get { storage.value.url }
        _modify { yield &storage.unique.value.url }
    }
    /// The response as the session delivered it, when it came from a session.
    public var httpURLResponse: HTTPURLResponse? {
        get { storage.value.httpURLResponse }
        _modify { yield &storage.unique.value.httpURLResponse }
    }
    /// The request as it was sent: after the will-begin actions, with default headers, the
    /// `Content-Type` and the encoded body.
    public var request: NetworkRequest? {
        get { storage.value.request }
        _modify { yield &storage.unique.value.request }
    }
    /// How long the stages took; see ``NetworkTimings``.
    public var timings: NetworkTimings {
        get { storage.value.timings }
        _modify { yield &storage.unique.value.timings }
    }
    /// The body of a streamed send, still on the wire, which the response's head travels through
    /// the stages without; `nil` for every other response.
    var unreadBody: StreamedBody? {
        get { storage.value.unreadBody }
        _modify { yield &storage.unique.value.unreadBody }
    }
    /// The body as the transport left it behind a head it returned early, before a relay owns it
    /// (see `NetworkTransportStep.receive`); `nil` once taken, and for every other response.
    var bodyOnTheWire: ByteStream? {
        get { storage.value.bodyOnTheWire }
        _modify { yield &storage.unique.value.bodyOnTheWire }
    }
    /// Whether a hop of the exchange went out with cookies the network's cookie store added, which
    /// ``request`` does not show: the answer is then one for the user they name, as one to an
    /// `Authorization` header is (response storage keeps it only in a partition).
    var sentStoredCookies: Bool { storage.value.sentStoredCookies }

    /// This response marked ``sentStoredCookies``: a new value built with the mark, never this one
    /// changed in place, since it is made on the thread that ends a call and handed to the sending
    /// task, which changes it next. (ThreadSanitizer does not see how the concurrency runtime
    /// orders a change made before a continuation's resumption with one made after it, and
    /// reports the two as a race: swiftlang/swift#57803.)
    func markingSentStoredCookies() -> NetworkResponse {
        var fields = storage.value
        fields.sentStoredCookies = true
        return NetworkResponse(fields: fields)
    }

    private init(fields: Fields) {
        storage = CopyOnWrite(fields)
    }

    /// The body; another name for ``body``, kept for code written against ECNetworking 2.x's
    /// `NetworkResponse.data`.
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
        storage = CopyOnWrite(
            Fields(
                statusCode: statusCode, headers: headers, body: body, url: url, httpURLResponse: httpURLResponse,
                request: request, timings: timings, unreadBody: nil, bodyOnTheWire: nil))
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
    init(_ response: consuming TransportResponse, body: Data, requestedURL: URL) {
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
    /// The ``request``'s ``NetworkRequest/validatesContentType``, or `nil` without a request.
    var requestValidatesContentType: Bool? {
        request?.validatesContentType
    }

    /// The value of the ``request``'s header `name`, or `nil` without a request.
    func requestHeader(_ name: String) -> String? {
        request?.headers[name]
    }
}

extension NetworkResponse {
    /// A response's stored values.
    fileprivate struct Fields: Sendable {
        var statusCode: Int
        var headers: HTTPHeaders
        var body: Data
        var url: URL?
        var httpURLResponse: HTTPURLResponse?
        var request: NetworkRequest?
        var timings: NetworkTimings
        var unreadBody: StreamedBody?
        var bodyOnTheWire: ByteStream?
        var sentStoredCookies = false
    }
}
