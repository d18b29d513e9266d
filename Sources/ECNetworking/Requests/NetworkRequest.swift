import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request as a value: what a ``Request`` builds from the base URL and what every action
/// sees and may change.
///
/// ```swift
/// var request = NetworkRequest(method: .post, url: baseURL.appendingPathComponent("users"), body: newUser)
/// request.headers["Idempotency-Key"] = UUID().uuidString
/// request.queryItems = [URLQueryItem(name: "notify", value: "true")]
/// request.timeout = .seconds(5)
/// ```
public struct NetworkRequest: Sendable {
    // In one copy-on-write object: a send hands the request from stage to stage and keeps it in its
    // metrics, its wire form and its response, and each of those copies then costs one reference
    // count instead of one per field.
    private var storage: CopyOnWrite<Fields>

    /// The headers; names are case-insensitive and may repeat. The configuration's default
    /// headers are added before the will-begin actions run, unless a header of the same name is here.
    public var headers: HTTPHeaders {
        get { storage.value.headers }
        _modify { yield &storage.unique.value.headers }
    }
    /// The method, such as `.get`.
    public var method: HTTPMethod {
        get { storage.value.method }
        _modify { yield &storage.unique.value.method }
    }
    /// The URL, which may already carry a query.
    public var url: URL {
        get { storage.value.url }
        _modify { yield &storage.unique.value.url }
    }
    /// The body, if any.
    public var body: RequestBody? {
        get { storage.value.body }
        _modify { yield &storage.unique.value.body }
    }
    /// Query items appended, in this order, to any query already in ``url``.
    public var queryItems: [URLQueryItem] {
        get { storage.value.queryItems }
        _modify { yield &storage.unique.value.queryItems }
    }
    /// How long one attempt may take before it fails with ``NetworkError/timedOut(after:)``;
    /// `nil` uses the configuration's ``NetworkConfiguration/timeout``. Enforced by the library
    /// itself, so fractions of a second hold on Linux too.
    public var timeout: Duration? {
        get { storage.value.timeout }
        _modify { yield &storage.unique.value.timeout }
    }
    /// The `URLRequest` cache policy, or `nil` for the session's default. ``URLSessionTransport``
    /// runs its session without a `URLCache`, so no policy finds an answer stored by Foundation;
    /// keep answers with a ``ResponseStore``, which keeps users apart. A `URLSession` of your own,
    /// used as a ``Session``, applies it as usual.
    public var cachePolicy: URLRequest.CachePolicy? {
        get { storage.value.cachePolicy }
        _modify { yield &storage.unique.value.cachePolicy }
    }
    /// Status codes that count as success for this request; `nil` uses the configuration's.
    public var acceptableStatusCodes: Set<Int>? {
        get { storage.value.acceptableStatusCodes }
        _modify { yield &storage.unique.value.acceptableStatusCodes }
    }
    /// Whether the response's `Content-Type` must be one this request accepts (its `Accept`
    /// header, or JSON for a `Decodable` response). `true` is strict: a mismatch fails with
    /// ``NetworkError/unacceptableContentType(_:)`` without decoding, for any request with an
    /// `Accept` header or ``Request/acceptableContentTypes``. `false` checks nothing. `nil`, the
    /// default, follows ``NetworkConfiguration/validatesContentType``, which decodes a mismatched
    /// body all the same and reports the wrong type only when decoding fails.
    public var validatesContentType: Bool? {
        get { storage.value.validatesContentType }
        _modify { yield &storage.unique.value.validatesContentType }
    }
    /// Extra information for actions; see ``CustomProperties``.
    public var customProperties: CustomProperties {
        get { storage.value.customProperties }
        _modify { yield &storage.unique.value.customProperties }
    }

    /// Creates a request whose body is any `Encodable` value, sent as JSON with the
    /// configuration's encoder.
    ///
    /// An `Optional` value that is `nil` means no body: nothing is sent and no
    /// `Content-Type` is set, rather than the JSON `null`. (`.json(value)` encodes what it is given.)
    public init(
        headers: HTTPHeaders = [:],
        method: HTTPMethod = .get,
        url: URL,
        body: some Encodable & Sendable,
        customProperties: CustomProperties = [:]
    ) {
        self.init(
            headers: headers, method: method, url: url, body: RequestBody.jsonUnlessAbsent(body),
            customProperties: customProperties)
    }

    /// Creates a request with any kind of body: `.json(value)`, `.data(bytes, contentType:)`,
    /// `.form(fields)`, `.text(string)`, `.file(at:)`, `.stream(chunks)` or `.multipart(form)`.
    public init(
        headers: HTTPHeaders = [:],
        method: HTTPMethod = .get,
        url: URL,
        body: RequestBody? = nil,
        queryItems: [URLQueryItem] = [],
        timeout: Duration? = nil,
        customProperties: CustomProperties = [:]
    ) {
        storage = CopyOnWrite(
            Fields(
                headers: headers, method: method, url: url, body: body, queryItems: queryItems, timeout: timeout,
                cachePolicy: nil, acceptableStatusCodes: nil, validatesContentType: nil,
                customProperties: customProperties))
    }

    /// Appends query items built from `parameters` by `encoder`, after any already set.
    ///
    /// ```swift
    /// try request.addQueryParameters(["online": true, "tag": ["a", "b"]])
    /// ```
    public mutating func addQueryParameters(
        _ parameters: [String: any Sendable],
        encoder: some QueryParameterEncoder = DefaultQueryParameterEncoder()
    ) throws {
        queryItems += try encoder.queryItems(for: parameters)
    }

    /// The URL with ``queryItems`` appended to its query, each name and value percent-encoded
    /// strictly (`+`, `&`, `=`, spaces and non-ASCII included).
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` when the URL cannot take a query; the
    ///   reason shows the URL redacted as descriptions are (see ``SensitiveData``).
    public func urlWithQuery() throws -> URL {
        guard !queryItems.isEmpty else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw NetworkError.invalidRequest(reason: "The URL \(Redaction.forDescriptions.url(url)) cannot be parsed")
        }
        let added = queryItems.map { item in
            let name = PercentEncoding.encodeQueryComponent(item.name)
            guard let value = item.value else { return name }
            return name + "=" + PercentEncoding.encodeQueryComponent(value)
        }
        .joined(separator: "&")
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + added
        } else {
            components.percentEncodedQuery = added
        }
        guard let result = components.url else {
            throw NetworkError.invalidRequest(
                reason: "The query could not be added to \(Redaction.forDescriptions.url(url))")
        }
        return result
    }
}

extension NetworkRequest {
    /// A request's stored values.
    fileprivate struct Fields: Sendable {
        var headers: HTTPHeaders
        var method: HTTPMethod
        var url: URL
        var body: RequestBody?
        var queryItems: [URLQueryItem]
        var timeout: Duration?
        var cachePolicy: URLRequest.CachePolicy?
        var acceptableStatusCodes: Set<Int>?
        var validatesContentType: Bool?
        var customProperties: CustomProperties
    }
}
