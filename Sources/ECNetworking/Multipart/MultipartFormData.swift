import Foundation

/// The fields and files of a `multipart/form-data` body, as an HTML form uploads them; send it
/// with ``RequestBody/multipart(_:)``.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ada", name: "author")
/// form.append(fileAt: photoURL, name: "photo", contentType: "image/jpeg")
/// let request = NetworkRequest(method: .post, url: uploadURL, body: .multipart(form))
/// ```
///
/// File parts are read from disk only when the body is sent: once the send has its
/// ``NetworkConfiguration/maximumConcurrentRequests`` slot, off the concurrency runtime's threads,
/// and once per send, whatever its retries. A body up to ``memoryThreshold`` bytes is encoded in
/// memory; a larger one is written, a chunk at a time, to a temporary file readable by the user
/// alone, that is sent from disk and removed when the send ends, so a large file is never loaded
/// whole. Either way the body has a `Content-Length` and can be resent by a retry or a 307 or 308
/// redirect. A part's file that is missing, or that changes size while it is read, fails the
/// send with ``NetworkError/invalidRequest(reason:)``.
public struct MultipartFormData: Sendable {
    /// The string that separates the parts; random unless given to ``init(boundary:)``.
    public let boundary: String
    /// The largest body, in bytes, encoded in memory; a larger one goes through a temporary file.
    /// 10 MB by default.
    public var memoryThreshold: Int = 10_000_000
    /// Whether a file name that is not ASCII also goes in a `filename*` parameter, in RFC 8187's
    /// `UTF-8''` percent-encoded form, after the `filename` parameter; `false` by default.
    ///
    /// By default a part names its file as browsers do and RFC 7578 asks: `filename="…"` with the
    /// name's UTF-8 bytes, which current servers read. Turn this on for a server that reads only
    /// `filename*` for names outside ASCII (RFC 7578 forbids `filename*` in form data, so a
    /// server that follows it strictly may refuse the part).
    public var sendsExtendedFileNames = false
    private(set) var parts: [MultipartPart] = []

    /// An empty form whose parts are separated by `boundary`: leave it out in production, for a
    /// random one, and give a fixed one in tests to compare bodies byte for byte.
    ///
    /// A boundary must be 1 to 70 characters from RFC 2046's set (letters, digits and
    /// `'()+_,-./:=?` and the space, not last); another fails the send with
    /// ``NetworkError/invalidRequest(reason:)``.
    public init(boundary: String = MultipartFormData.randomBoundary()) {
        self.boundary = boundary
    }

    /// A new random boundary, unlikely to occur in any part.
    public static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "")
        return "ECNetworking-" + random
    }

    /// The `Content-Type` of the body, with its boundary: quoted when it holds a character a
    /// header parameter's token cannot (RFC 2046 allows `'()+_,-./:=?` and the space in a
    /// boundary, and `()`, `,`, `/`, `:`, `=`, `?` and the space end a token), as RFC 2046 says.
    public var contentType: String {
        let isToken = boundary.unicodeScalars.allSatisfy { !Self.tokenEnders.contains($0) }
        return "multipart/form-data; boundary=" + (isToken ? boundary : "\"\(boundary)\"")
    }

    /// The characters of a valid boundary that a token cannot hold (RFC 9110's delimiters).
    private static let tokenEnders = Set("()/:=?, ".unicodeScalars)

    /// Adds a text field, encoded as UTF-8.
    public mutating func append(_ value: String, name: String) {
        parts.append(MultipartPart(name: name, fileName: nil, contentType: nil, source: .data(Data(value.utf8))))
    }

    /// Adds a part of `data`: a file when `fileName` is given, as a form uploads one. `headers` go
    /// in the part after its `Content-Disposition` and `Content-Type` (a `Content-ID`, say); one
    /// that names either of those, is not a valid field, or has a line break fails the send with
    /// ``NetworkError/invalidRequest(reason:)``.
    public mutating func append(
        _ data: Data, name: String, fileName: String? = nil, contentType: String? = nil, headers: HTTPHeaders = [:]
    ) {
        parts.append(
            MultipartPart(
                name: name, fileName: fileName, contentType: contentType, headers: headers, source: .data(data)))
    }

    /// Adds the file at the `file:` URL `url`, read from disk only when the body is sent, named
    /// `fileName` (the URL's last path component unless given), with `headers` of its own as for
    /// ``append(_:name:fileName:contentType:headers:)``.
    public mutating func append(
        fileAt url: URL, name: String, fileName: String? = nil,
        contentType: String = "application/octet-stream", headers: HTTPHeaders = [:]
    ) {
        parts.append(
            MultipartPart(
                name: name, fileName: fileName ?? url.lastPathComponent, contentType: contentType, headers: headers,
                source: .file(url)))
    }

    /// The number of parts.
    public var count: Int { parts.count }
}
