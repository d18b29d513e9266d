#if OpenAPI
    import Foundation
    import HTTPTypes

    extension NetworkRequest {
        /// The library's request for a generated client's: the method, the path (with its query,
        /// already percent-encoded by the client) joined to `baseURL`, and every header field in
        /// order, repeated names kept. The body is set by the caller.
        ///
        /// - Throws: ``NetworkError/invalidRequest(reason:)`` when the joined text is not a URL;
        ///   the reason shows it redacted.
        init(_ request: HTTPRequest, baseURL: URL) throws {
            let url = try Self.url(joining: request.path ?? "", to: baseURL)
            var headers = HTTPHeaders()
            for field in request.headerFields {
                headers.add(name: field.name.rawName, value: field.value)
            }
            self.init(headers: headers, method: HTTPMethod(rawValue: request.method.rawValue), url: url)
        }

        /// `path` appended to the path of `baseURL`, whose own query and fragment are dropped, as
        /// the generator's other transports do; built as text so the client's percent-encoding
        /// reaches the wire unchanged.
        private static func url(joining path: String, to baseURL: URL) throws -> URL {
            var base = baseURL.absoluteString
            if let end = base.firstIndex(where: { $0 == "?" || $0 == "#" }) {
                base = String(base[..<end])
            }
            while base.hasSuffix("/") { base.removeLast() }
            let separator = path.hasPrefix("/") || path.hasPrefix("?") || path.isEmpty ? "" : "/"
            let text = base + separator + path
            guard let url = URL(string: text) else {
                throw NetworkError.invalidRequest(
                    reason: "\"\(Redaction.forDescriptions.urlText(text))\" is not a valid URL")
            }
            return url
        }
    }
#endif
