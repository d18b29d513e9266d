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
/// `Void` (any body, including none), `Data` (the raw body) and `String` (UTF-8). Implement
/// ``response(from:with:)`` to decode anything else or to read the status and headers too.
public protocol Request: Sendable {
    /// The value a successful send returns.
    associatedtype Response: Sendable

    /// Extra information merged into the built request's ``NetworkRequest/customProperties``
    /// (replacing values under the same keys), for actions to act on.
    var customProperties: CustomProperties { get }

    /// Builds the HTTP request from the configuration's base URL. It may throw; the send then
    /// fails with that error, unchanged, and nothing is sent.
    func buildRequest(with baseURL: URL) throws -> NetworkRequest

    /// Turns the validated response into ``Response``. A thrown error becomes
    /// ``NetworkError/decodingFailed(_:response:)`` carrying the response.
    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Response
}

extension Request {
    /// No custom properties by default.
    public var customProperties: CustomProperties { CustomProperties() }
}

extension Request where Response: Decodable {
    /// Decodes the body as JSON with the configuration's decoder.
    public func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Response {
        try decoder.decode(Response.self, from: response.body)
    }
}

extension Request where Response == Void {
    /// Ignores the body, so 204 and empty responses succeed.
    public func response(from response: NetworkResponse, with decoder: JSONDecoder) throws {}
}

extension Request where Response == Data {
    /// Returns the body as it came.
    public func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Data {
        response.body
    }
}

extension Request where Response == String {
    /// Returns the body read as UTF-8.
    ///
    /// - Throws: ``ResponseDecodingError/invalidText`` when the body is not valid UTF-8.
    public func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> String {
        guard let text = String(data: response.body, encoding: .utf8) else {
            throw ResponseDecodingError.invalidText
        }
        return text
    }
}
