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
    /// The headers; names are case-insensitive and may repeat. The configuration's default
    /// headers are added before the will-begin actions run, unless a header of the same name is here.
    public var headers: HTTPHeaders
    /// The method, such as `.get`.
    public var method: HTTPMethod
    /// The URL, which may already carry a query.
    public var url: URL
    /// The body, if any.
    public var body: RequestBody?
    /// Query items appended, in this order, to any query already in ``url``.
    public var queryItems: [URLQueryItem]
    /// How long one attempt may take before it fails with ``NetworkError/timedOut(after:)``;
    /// `nil` uses the configuration's ``NetworkConfiguration/timeout``. Enforced by the library
    /// itself, so fractions of a second hold on Linux too.
    public var timeout: Duration?
    /// The cache policy, or `nil` for the session's default.
    public var cachePolicy: URLRequest.CachePolicy?
    /// Status codes that count as success for this request; `nil` uses the configuration's.
    public var acceptableStatusCodes: Set<Int>?
    /// Whether the response's `Content-Type` must be one this request accepts (its `Accept`
    /// header, or JSON for a `Decodable` response); a mismatch fails with
    /// ``NetworkError/unacceptableContentType(_:)`` before decoding. `nil`, the default, follows
    /// ``NetworkConfiguration/validatesContentType`` for requests whose ``Request`` has
    /// ``Request/acceptableContentTypes``; `true` checks any request with an `Accept` header.
    public var validatesContentType: Bool?
    /// Extra information for actions; see ``CustomProperties``.
    public var customProperties: CustomProperties

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
        self.headers = headers
        self.method = method
        self.url = url
        self.body = body
        self.queryItems = queryItems
        self.timeout = timeout
        self.cachePolicy = nil
        self.acceptableStatusCodes = nil
        self.validatesContentType = nil
        self.customProperties = customProperties
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
