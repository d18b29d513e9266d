/// Checks that a response's `Content-Type` is one its request accepts, before it is decoded.
enum ContentTypeValidation {
    /// Fails when `response` has a `Content-Type` outside what its request accepts: its `Accept`
    /// header as sent, else `defaultTypes` (JSON for a `Decodable` response).
    ///
    /// It runs when the request's ``NetworkRequest/validatesContentType`` says so, or, when that
    /// is `nil`, when `enabledByDefault` (the configuration's switch) is on and the request type
    /// has `defaultTypes`. A 204, an empty body and a response without `Content-Type` pass: there
    /// is nothing to misread.
    ///
    /// - Throws: ``NetworkError/unacceptableContentType(_:)`` carrying the response.
    static func validate(_ response: NetworkResponse, defaultTypes: [String]?, enabledByDefault: Bool) throws {
        // Read through `response` rather than bound to a local: binding the request copied it.
        switch response.request?.validatesContentType {
        case false?: return
        case true?: break
        case nil: guard enabledByDefault, defaultTypes != nil else { return }
        }
        // Nothing to misread: checked before any header is parsed.
        guard response.statusCode != 204, !response.body.isEmpty, let header = response.headers["Content-Type"]
        else { return }
        let accepted: [MediaRange]
        if let header = response.request?.headers["Accept"] {
            accepted = MediaRange.list(header)
        } else if let defaultTypes {
            accepted = defaultTypes.compactMap(MediaRange.init)
        } else {
            return
        }
        guard !accepted.isEmpty else { return }
        guard let contentType = MediaRange(header), accepted.contains(where: { $0.accepts(contentType) }) else {
            throw NetworkError.unacceptableContentType(response)
        }
    }
}
