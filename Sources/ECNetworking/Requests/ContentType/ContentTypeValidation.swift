/// Checks that a response's `Content-Type` is one its request accepts, before it is decoded.
enum ContentTypeValidation {
    /// What the check makes of a response's `Content-Type`.
    enum Verdict {
        /// The type is one the request accepts, or there is nothing to check.
        case accepted
        /// The type is not one the request accepts, found by the check that is on by default: the
        /// body is still decoded, and only a failure of the library's own decoding is reported as
        /// ``NetworkError/unacceptableContentType(_:)``. APIs that label JSON `text/plain` or
        /// `text/html` are common, and the libraries this one replaces decoded their bodies.
        case mismatched
        /// The type is not one the request accepts, and the request asked for the check itself
        /// (``NetworkRequest/validatesContentType`` is `true`): the send fails without decoding.
        case refused
    }

    /// What to make of `response`'s `Content-Type`, against what its request accepts: its `Accept`
    /// header as sent, else `defaultTypes` (JSON for a `Decodable` response).
    ///
    /// The check runs when the request's ``NetworkRequest/validatesContentType`` says so (and is
    /// then strict), or, when that is `nil`, when `enabledByDefault` (the configuration's switch)
    /// is on and the request type has `defaultTypes`. A 204, an empty body and a response without
    /// `Content-Type` pass: there is nothing to misread.
    static func verdict(on response: borrowing NetworkResponse, defaultTypes: [String]?, enabledByDefault: Bool)
        -> Verdict
    {
        // Read in place: binding the request, or reading it through `request`, copies it.
        let failure: Verdict
        switch response.requestValidatesContentType {
        case false?: return .accepted
        case true?: failure = .refused
        case nil:
            guard enabledByDefault, defaultTypes != nil else { return .accepted }
            failure = .mismatched
        }
        // Nothing to misread: checked before any header is parsed.
        guard response.statusCode != 204, !response.body.isEmpty else { return .accepted }
        // The request's own `Accept` decides; without one, the response type's defaults do, read
        // in place: gathered into an array of ranges they would cost every send an allocation.
        if let accept = response.requestHeader("Accept") {
            guard let header = response.headers["Content-Type"] else { return .accepted }
            return MediaRange.list(accept).admit(MediaRange(header)) ? .accepted : failure
        }
        guard let defaultTypes else { return .accepted }
        // The defaults are matched on the type and subtype alone. The default check, which only
        // decides which error a body that fails to decode reports, may take them from the media
        // type the response parsed already (see `HTTPHeaders.contentMediaType`); a check the
        // request asked for reads the header itself.
        let contentType = failure == .mismatched ? response.headers.contentMediaType : response.headers["Content-Type"]
        guard let contentType else { return .accepted }
        return MediaRange.text(contentType, fallsInAnyOf: defaultTypes) ? .accepted : failure
    }
}

extension Sequence<MediaRange> {
    /// Whether an `Accept` header of these ranges admits `contentType`: the most specific range
    /// that takes it decides (RFC 9110, section 12.5.1), and one with `q=0` says it is not
    /// acceptable. A header that names no range that parses admits anything.
    func admit(_ contentType: MediaRange?) -> Bool {
        var namesAny = false
        var decidingRange: (specificity: Int, refuses: Bool)?
        for range in self {
            namesAny = true
            guard let contentType, let specificity = range.specificity(accepting: contentType) else { continue }
            // Of two ranges as specific as each other (the same one listed twice), the one that
            // admits wins: a header is not read as refusing what it also asks for.
            if let deciding = decidingRange,
                deciding.specificity > specificity || (deciding.specificity == specificity && !deciding.refuses)
            {
                continue
            }
            decidingRange = (specificity, range.refuses)
        }
        guard namesAny else { return true }
        return decidingRange.map { !$0.refuses } ?? false
    }
}
