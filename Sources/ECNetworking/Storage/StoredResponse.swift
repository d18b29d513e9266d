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
    /// The request headers the response's `Vary` names, as they were sent; a later request is
    /// answered by this response only when its own values are the same. A credential header
    /// (one ``SensitiveData`` names) is kept as a SHA-256 digest of its value, never the value.
    public var variedRequestHeaders: HTTPHeaders

    /// Creates a stored response from its parts.
    public init(
        statusCode: Int,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        storedAt: Date = Date(),
        variedRequestHeaders: HTTPHeaders = [:]
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.storedAt = storedAt
        self.variedRequestHeaders = variedRequestHeaders
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
    /// does not make an entry younger than new. A date that is not a number, or so far back that
    /// no `Duration` holds the age (a damaged or forged entry), reads as ``maximumAge``, which is
    /// never fresh.
    public func age(at date: Date = Date()) -> Duration {
        let seconds = date.timeIntervalSince(storedAt)
        guard !seconds.isNaN, seconds < Double(Self.maximumAgeSeconds) else { return Self.maximumAge }
        return .seconds(max(0, seconds))
    }

    /// The age of an entry stored too long ago to say: about 31,700 years.
    public static let maximumAge = Duration.seconds(maximumAgeSeconds)
    private static let maximumAgeSeconds: Int64 = 1_000_000_000_000

    /// The bytes counted against a store's budget: the body plus every header name and value.
    public var byteCount: Int {
        (headers.fields + variedRequestHeaders.fields).reduce(body.count) {
            $0 + $1.name.utf8.count + $1.value.utf8.count
        }
    }

    /// Headers never kept in a store.
    static let unstoredHeaderNames = ["Set-Cookie", "Set-Cookie2"]

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case statusCode, headers, body, storedAt, variedRequestHeaders
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
        let varied = try container.decodeIfPresent([EncodedField].self, forKey: .variedRequestHeaders) ?? []
        variedRequestHeaders = HTTPHeaders(varied.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
    }

    /// Encodes the headers as an ordered list of name and value pairs, so repeated names and
    /// their order survive.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(statusCode, forKey: .statusCode)
        try container.encode(headers.map { EncodedField(name: $0.name, value: $0.value) }, forKey: .headers)
        try container.encode(body, forKey: .body)
        try container.encode(storedAt, forKey: .storedAt)
        if !variedRequestHeaders.isEmpty {
            try container.encode(
                variedRequestHeaders.map { EncodedField(name: $0.name, value: $0.value) },
                forKey: .variedRequestHeaders)
        }
    }
}
