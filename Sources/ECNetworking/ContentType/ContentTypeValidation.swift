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
    static func validate(_ response: borrowing NetworkResponse, defaultTypes: [String]?, enabledByDefault: Bool)
        throws
    {
        // Read in place: binding the request, or reading it through `request`, copies it.
        switch response.requestValidatesContentType {
        case false?: return
        case true?: break
        case nil: guard enabledByDefault, defaultTypes != nil else { return }
        }
        // Nothing to misread: checked before any header is parsed.
        guard response.statusCode != 204, !response.body.isEmpty, let header = response.headers["Content-Type"]
        else { return }
        // The request's own `Accept` decides; without one, the response type's defaults do, read
        // in place: gathered into an array of ranges they would cost every send an allocation.
        if let accept = response.requestHeader("Accept") {
            try check(MediaRange(header), against: MediaRange.list(accept), of: response)
        } else if let defaultTypes, !MediaRange.text(header, fallsInAnyOf: defaultTypes) {
            throw NetworkError.unacceptableContentType(copy response)
        }
    }

    /// Fails unless `contentType` falls in one of `ranges`; a request that names no media type it
    /// could read accepts whatever comes.
    private static func check(
        _ contentType: MediaRange?, against ranges: some Sequence<MediaRange>, of response: NetworkResponse
    ) throws {
        var namesAny = false
        for range in ranges {
            namesAny = true
            if let contentType, range.accepts(contentType) { return }
        }
        if namesAny { throw NetworkError.unacceptableContentType(response) }
    }
}
