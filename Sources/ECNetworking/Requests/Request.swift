import Foundation

/// An endpoint modelled as a value: it builds a ``NetworkRequest`` from the base URL and turns the
/// ``NetworkResponse`` into its typed ``Response``.
///
/// ```swift
/// struct ListUsersRequest: Request {
///     typealias Response = [User]
///     let online: Bool
///
///     func buildRequest(with baseURL: URL) -> NetworkRequest {
///         var request = NetworkRequest(method: .get, url: baseURL.appendingPathComponent("users"))
///         request.queryItems = [URLQueryItem(name: "online", value: String(online))]
///         return request
///     }
/// }
/// ```
///
/// Decoding is built in for `Decodable` responses (JSON, with the configuration's decoder),
/// `Void` (any body, including none), `Data` (the raw body) and `String` (UTF-8). To decode
/// anything else, implement one of the two forms of `response(from:with:)`:
/// - the `Data` form, to decode the body alone;
/// - the ``NetworkResponse`` form, to read the status and headers too. Its default calls the
///   `Data` form with the body, so a request that implements only the `Data` form is decoded by it.
///
/// A request that declares no `typealias Response` and implements neither form has its
/// `Response` inferred as `Void`, as ECNetworking did.
public protocol Request: Sendable {
    /// The value a successful send returns.
    associatedtype Response: Sendable

    /// Extra information merged into the built request's ``NetworkRequest/customProperties``
    /// (replacing values under the same keys), for actions to act on.
    var customProperties: CustomProperties { get }

    /// Builds the HTTP request from the configuration's base URL. It may throw; the send then
    /// fails with that error, unchanged, and nothing is sent.
    func buildRequest(with baseURL: URL) throws -> NetworkRequest

    /// The media types the response may have, checked against its `Content-Type` when the
    /// request has no `Accept` header (see ``NetworkConfiguration/validatesContentType``).
    /// `application/json` for a `Decodable` response, which also takes `+json` types such as
    /// `application/problem+json`; `nil`, no check, for the others (`Void`, `Data`, `String`).
    var acceptableContentTypes: [String]? { get }

    /// Turns the validated response into ``Response``. A thrown error becomes
    /// ``NetworkError/decodingFailed(_:response:)`` carrying the response.
    ///
    /// The default decodes the body with the `Data` form below.
    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Response

    /// Turns the validated response's body into ``Response``; called by the default of the
    /// ``NetworkResponse`` form. A thrown error becomes ``NetworkError/decodingFailed(_:response:)``
    /// carrying the response.
    func response(from data: Data, with decoder: JSONDecoder) throws -> Response
}

extension Request {
    /// No custom properties by default.
    public var customProperties: CustomProperties { CustomProperties() }

    /// No check by default: the library cannot know what a custom decoding reads.
    public var acceptableContentTypes: [String]? { nil }

    /// Decodes the body with the `Data` form, so that whichever form a request implements is used.
    public func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Response {
        try self.response(from: response.body, with: decoder)
    }

    /// Fails, for a `Response` the library cannot decode when the request implements neither form.
    /// A request that implements only the ``NetworkResponse`` form never reaches it.
    ///
    /// - Throws: ``ResponseDecodingError/notImplemented(requestType:)``.
    public func response(from data: Data, with decoder: JSONDecoder) throws -> Response {
        throw ResponseDecodingError.notImplemented(requestType: String(describing: Self.self))
    }
}

// The built-in decodings are the `Data` form, so a request's own `Data` form replaces them, and
// the `NetworkResponse` form's default reaches them. Only the `Void` one names its type: the
// others return `Response`, so that a request without `typealias Response` infers `Void` alone,
// as in ECNetworking, instead of finding `Void`, `Data` and `String` equally likely.

extension Request where Response: Decodable {
    /// JSON, which the built-in decoding reads.
    public var acceptableContentTypes: [String]? { ["application/json"] }

    /// Decodes the body as JSON with the configuration's decoder.
    public func response(from data: Data, with decoder: JSONDecoder) throws -> Response {
        do {
            return try decoder.decode(Response.self, from: data)
        } catch {
            // A body labelled other than JSON that fails here is reported as the wrong type.
            BuiltInDecodingWitness.noteFailure()
            throw error
        }
    }
}

extension Request where Response == Void {
    /// Ignores the body, so 204 and empty responses succeed.
    public func response(from data: Data, with decoder: JSONDecoder) throws {}
}

extension Request where Response == Data {
    /// Any bytes: none are decoded.
    public var acceptableContentTypes: [String]? { nil }

    /// Returns the body as it came.
    public func response(from data: Data, with decoder: JSONDecoder) throws -> Response {
        data
    }
}

extension Request where Response == String {
    /// Any text: none is decoded as JSON.
    public var acceptableContentTypes: [String]? { nil }

    /// Returns the body read as UTF-8.
    ///
    /// - Throws: ``ResponseDecodingError/invalidText`` when the body is not valid UTF-8.
    public func response(from data: Data, with decoder: JSONDecoder) throws -> Response {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ResponseDecodingError.invalidText
        }
        return text
    }
}
