import Foundation

/// What a request sends as its body: JSON from an `Encodable`, raw bytes with a content type,
/// form fields, text, a file, a stream of bytes, or multipart form data.
///
/// JSON, form and multipart bodies set `Content-Type` unless the request already has one.
///
/// Every kind but ``stream(_:length:contentType:)`` can be sent again, so a retry (asked for by a
/// completed action or the ``RetryPolicy``) and a 307 or 308 redirect resend it. A stream is read
/// once: a send with one fails with ``NetworkError/bodyNotReplayable(response:lastError:)``
/// instead of retrying, and is never joined with an identical request (see
/// ``NetworkConfiguration/coalescesIdenticalRequests``).
public struct RequestBody: Sendable {
    enum Content: Sendable {
        case json(any Encodable & Sendable, encoder: JSONEncoder?)
        case data(Data, contentType: String?)
        case form([URLQueryItem])
        case text(String, contentType: String)
        case file(URL, contentType: String?)
        case stream(ByteStream, length: Int?, contentType: String?)
        case multipart(MultipartFormData)
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

    /// The file at the `file:` URL `url`, read from disk as it is sent (never loaded whole), with
    /// its size as `Content-Length`.
    ///
    /// The file is checked when the request is encoded: one that is missing or unreadable fails
    /// the send with ``NetworkError/invalidRequest(reason:)`` before anything goes on the wire. One
    /// that grows or shrinks while it is sent fails it at once with the same error over
    /// `AsyncHTTPClientTransport`, and over `URLSessionTransport` on Linux, though part of it has
    /// gone out; nothing past its `Content-Length` goes out.
    public static func file(at url: URL, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(content: .file(url, contentType: contentType))
    }

    /// The bytes `chunks` produces, sent as they arrive: with `Content-Length` when `length` is
    /// given, chunked otherwise.
    ///
    /// A stream is read once, so the send is never retried and never follows a 307 or 308
    /// redirect: both fail with ``NetworkError/bodyNotReplayable(response:lastError:)`` (for a
    /// redirect, carrying the 3xx), rather than resend bytes already consumed. `length`, when
    /// given, must be the exact number of bytes the stream produces: a transport that announces it
    /// (AsyncHTTPClientTransport) fails the send otherwise.
    public static func stream<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, length: Int? = nil, contentType: String? = "application/octet-stream"
    ) -> RequestBody where Chunks.Element == Data {
        let stream = (chunks as? ByteStream) ?? ByteStream(chunks)
        return RequestBody(content: .stream(stream, length: length, contentType: contentType))
    }

    /// A `multipart/form-data` body of `form`'s fields and files, with its boundary in the
    /// `Content-Type`.
    public static func multipart(_ form: MultipartFormData) -> RequestBody {
        RequestBody(content: .multipart(form))
    }

    /// The content type this body implies, without encoding it.
    var impliedContentType: String? {
        switch content {
        case .json: "application/json"
        case .data(_, let contentType): contentType
        case .form: "application/x-www-form-urlencoded"
        case .text(_, let contentType): contentType
        case .file(_, let contentType): contentType
        case .stream(_, _, let contentType): contentType
        case .multipart(let form): form.contentType
        }
    }

    /// Whether the body is held in memory, encoded when the request is: JSON, data, form or text.
    var isBuffered: Bool {
        switch content {
        case .json, .data, .form, .text: true
        case .file, .stream, .multipart: false
        }
    }

    /// Whether the body can be sent more than once: all but a stream can.
    public var isReplayable: Bool {
        if case .stream = content { return false }
        return true
    }

    /// The bytes to send and the content type they imply.
    ///
    /// A file is read whole and a multipart body is encoded in memory here; a send streams both
    /// instead.
    ///
    /// - Throws: ``NetworkError/encodingFailed(_:)`` when a JSON value cannot be encoded;
    ///   ``NetworkError/invalidRequest(reason:)`` for a file (or a multipart part's file) that
    ///   cannot be read, and for a stream, whose bytes exist only as it is sent.
    public func encoded(defaultEncoder: JSONEncoder) throws -> (data: Data, contentType: String?) {
        (try bytes(defaultEncoder: defaultEncoder), impliedContentType)
    }

    /// The body as the transport sends it: buffered kinds as bytes, a file as a file, a stream as
    /// a stream; `nil` for multipart, which the send encodes only once it has its concurrency slot
    /// (see ``EncodedMultipartBody``).
    func transportBody(defaultEncoder: JSONEncoder) throws -> TransportRequestBody? {
        switch content {
        case .json, .data, .form, .text:
            return .bytes(try bytes(defaultEncoder: defaultEncoder))
        case .file(let url, _):
            return try .file(at: url)
        case .stream(let stream, let length, _):
            return .stream(stream.failingAsRequestBody(), length: length)
        case .multipart:
            return nil
        }
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
        case .file(let url, _):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw NetworkError.invalidRequest(
                    reason: "the body file \"\(url.lastPathComponent)\" is not a readable file")
            }
        case .stream:
            throw NetworkError.invalidRequest(reason: "a stream body has no bytes until it is sent")
        case .multipart(let form):
            return try form.encodedInMemory()
        }
    }
}
