/// A media type or range from a `Content-Type` or `Accept` header, such as `application/json`,
/// `image/*` or `*/*`, lower-cased, its parameters (`charset`, `q`) dropped.
struct MediaRange: Equatable, Sendable {
    let type: String
    let subtype: String

    /// Parses `text`, or returns `nil` when it is not `type/subtype`.
    init?(_ text: some StringProtocol) {
        let essence = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let pieces = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard pieces.count == 2 else { return nil }
        type = pieces[0].trimmingASCIISpaces().lowercased()
        subtype = pieces[1].trimmingASCIISpaces().lowercased()
        guard !type.isEmpty, !subtype.isEmpty else { return nil }
    }

    /// The ranges of an `Accept` header, in order; elements that do not parse are skipped.
    static func list(_ header: String) -> [MediaRange] {
        header.split(separator: ",").compactMap(MediaRange.init)
    }

    /// Whether the media type `contentType` falls in this range: `*/*` takes any type, `type/*`
    /// any subtype of its type, and `application/json` (any `…/json`) also the structured
    /// syntax suffix `+json`, as in `application/problem+json`.
    func accepts(_ contentType: MediaRange) -> Bool {
        if type == "*" && subtype == "*" { return true }
        guard type == contentType.type else { return false }
        if subtype == "*" || subtype == contentType.subtype { return true }
        // RFC 6839: a `+json` type is JSON with more meaning, so a JSON client can read it.
        return subtype == "json" && contentType.subtype.hasSuffix("+json")
    }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    fileprivate func trimmingASCIISpaces() -> SubSequence {
        var text = self[...]
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
