/// A media type or range from a `Content-Type` or `Accept` header, such as `application/json`,
/// `image/*` or `*/*`, its parameters (`charset`, `q`) dropped. Type and subtype compare without
/// regard to ASCII case.
///
/// The parts are views into the header's text, found and compared byte by byte: validation runs
/// on every decoded response, and lower-cased copies, or character-by-character searches, cost
/// more there than the rest of the send's own work.
struct MediaRange: Equatable, Sendable {
    let type: Substring
    let subtype: Substring

    /// Parses `text`, or returns `nil` when it is not `type/subtype`.
    init?(_ text: some StringProtocol) {
        let whole = Substring(text)
        let bytes = whole.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        guard let slash = bytes[..<end].firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let subtypeStart = bytes.index(after: slash)
        guard !bytes[subtypeStart..<end].contains(UInt8(ascii: "/")) else { return nil }
        type = whole[whole.startIndex..<slash].trimmingASCIISpaces()
        subtype = whole[subtypeStart..<end].trimmingASCIISpaces()
        guard !type.isEmpty, !subtype.isEmpty else { return nil }
    }

    /// The ranges of an `Accept` header, in order; elements that do not parse are skipped.
    static func list(_ header: String) -> [MediaRange] {
        header.split(separator: ",").compactMap(MediaRange.init)
    }

    static func == (lhs: MediaRange, rhs: MediaRange) -> Bool {
        lhs.type.equalsIgnoringASCIICase(rhs.type) && lhs.subtype.equalsIgnoringASCIICase(rhs.subtype)
    }

    /// Whether the media type `contentType` falls in this range: `*/*` takes any type, `type/*`
    /// any subtype of its type, and `application/json` (any `…/json`) also the structured
    /// syntax suffix `+json`, as in `application/problem+json`.
    func accepts(_ contentType: MediaRange) -> Bool {
        let isAnySubtype = subtype.utf8.elementsEqual("*".utf8)
        if isAnySubtype && type.utf8.elementsEqual("*".utf8) { return true }
        guard type.equalsIgnoringASCIICase(contentType.type) else { return false }
        if isAnySubtype || subtype.equalsIgnoringASCIICase(contentType.subtype) { return true }
        // RFC 6839: a `+json` type is JSON with more meaning, so a JSON client can read it.
        let suffix = "+json".utf8
        let candidate = contentType.subtype.utf8
        return subtype.equalsIgnoringASCIICase("json") && candidate.count > suffix.count
            && candidate.suffix(suffix.count).equalsIgnoringASCIICase(suffix)
    }
}

extension Substring {
    /// The text without spaces and tabs at either end.
    fileprivate func trimmingASCIISpaces() -> Substring {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while start < end, isSpace(bytes[start]) { start = bytes.index(after: start) }
        while start < end, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return self[start..<end]
    }
}
