import Foundation

/// What a request sends as its body: JSON from an `Encodable`, raw bytes with a content type,
/// form fields, or text.
///
/// JSON and form bodies set `Content-Type` unless the request already has one.
public struct RequestBody: Sendable {
    enum Content: Sendable {
        case json(any Encodable & Sendable, encoder: JSONEncoder?)
        case data(Data, contentType: String?)
        case form([URLQueryItem])
        case text(String, contentType: String)
    }

    let content: Content

    /// A JSON body encoded with `encoder`, or with the configuration's encoder when `nil`.
    public static func json(_ value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> RequestBody {
        RequestBody(content: .json(value, encoder: encoder))
    }

    /// Raw bytes, sent as they are, with an optional `Content-Type`.
    public static func data(_ data: Data, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(content: .data(data, contentType: contentType))
    }

    /// Form fields encoded as `application/x-www-form-urlencoded`, in the order given.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        RequestBody(content: .form(fields))
    }

    /// Form fields from a dictionary, sorted by name so the body is deterministic.
    public static func form(_ fields: [String: String]) -> RequestBody {
        .form(fields.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// Text encoded as UTF-8.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(content: .text(text, contentType: contentType))
    }

    /// The content type this body implies, without encoding it.
    var impliedContentType: String? {
        switch content {
        case .json: "application/json"
        case .data(_, let contentType): contentType
        case .form: "application/x-www-form-urlencoded"
        case .text(_, let contentType): contentType
        }
    }

    /// The bytes to send and the content type they imply.
    ///
    /// - Throws: ``NetworkError/encodingFailed(_:)`` when a JSON value cannot be encoded.
    public func encoded(defaultEncoder: JSONEncoder) throws -> (data: Data, contentType: String?) {
        (try bytes(defaultEncoder: defaultEncoder), impliedContentType)
    }

    private func bytes(defaultEncoder: JSONEncoder) throws -> Data {
        switch content {
        case .json(let value, let encoder):
            do {
                return try (encoder ?? defaultEncoder).encode(value)
            } catch {
                throw NetworkError.encodingFailed(error)
            }
        case .data(let data, _):
            return data
        case .form(let fields):
            let text = fields.map {
                PercentEncoding.encodeFormComponent($0.name) + "="
                    + PercentEncoding.encodeFormComponent($0.value ?? "")
            }
            .joined(separator: "&")
            return Data(text.utf8)
        case .text(let text, _):
            return Data(text.utf8)
        }
    }
}
