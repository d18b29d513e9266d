import Foundation

/// A response as it came over the wire, kept by a ``ResponseStore``: status, headers, body and
/// when it was stored.
///
/// It is deliberately raw rather than a decoded value: when a model's decoding changes, the stored
/// bytes decode with the new code, or the entry is dropped and fetched again; the store never holds
/// values a newer version of the app cannot read.
public struct StoredResponse: Sendable, Hashable, Codable {
    /// The HTTP status code, such as 200.
    public var statusCode: Int
    /// The headers in the order they came; names are compared without regard to case.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Data
    /// When the response was stored, or last confirmed by a `304 Not Modified`.
    public var storedAt: Date

    /// Creates a stored response from its parts.
    public init(statusCode: Int, headers: HTTPHeaders = [:], body: Data = Data(), storedAt: Date = Date()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.storedAt = storedAt
    }

    /// Creates a stored response from a network response. `Set-Cookie` headers are left out:
    /// a session cookie has no business in a cache file.
    public init(_ response: NetworkResponse, storedAt: Date = Date()) {
        var headers = response.headers
        for name in Self.unstoredHeaderNames {
            headers.remove(name: name)
        }
        self.init(statusCode: response.statusCode, headers: headers, body: response.body, storedAt: storedAt)
    }

    /// The `ETag` header, read without regard to case, which makes a later send conditional
    /// (`If-None-Match`).
    public var etag: String? { headers["ETag"] }

    /// The `Last-Modified` header, read without regard to case, which makes a later send
    /// conditional (`If-Modified-Since`) when there is no `ETag`.
    public var lastModified: String? { headers["Last-Modified"] }

    /// How long ago the response was stored, as of `date`; never negative, so a clock set back
    /// does not make an entry younger than new.
    public func age(at date: Date = Date()) -> Duration {
        .seconds(max(0, date.timeIntervalSince(storedAt)))
    }

    /// The bytes counted against a store's budget: the body plus every header name and value.
    public var byteCount: Int {
        headers.reduce(body.count) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }

    /// Headers never kept in a store.
    static let unstoredHeaderNames = ["Set-Cookie", "Set-Cookie2"]

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case statusCode, headers, body, storedAt
    }

    /// One header as it is encoded: an object keeps the name and value together and in order.
    private struct EncodedField: Codable {
        var name: String
        var value: String
    }

    /// Decodes a response encoded by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        statusCode = try container.decode(Int.self, forKey: .statusCode)
        let fields = try container.decode([EncodedField].self, forKey: .headers)
        headers = HTTPHeaders(fields.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
        body = try container.decode(Data.self, forKey: .body)
        storedAt = try container.decode(Date.self, forKey: .storedAt)
    }

    /// Encodes the headers as an ordered list of name and value pairs, so repeated names and
    /// their order survive.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statusCode, forKey: .statusCode)
        try container.encode(headers.map { EncodedField(name: $0.name, value: $0.value) }, forKey: .headers)
        try container.encode(body, forKey: .body)
        try container.encode(storedAt, forKey: .storedAt)
    }
}
