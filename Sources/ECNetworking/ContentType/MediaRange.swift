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
        // The parts are found as byte offsets in the text's own storage, then cut out once: walking
        // a substring's views index by index costs several times as much.
        let found =
            whole.utf8.withContiguousStorageIfAvailable(Self.parts(of:))
            ?? Array(whole.utf8).withUnsafeBufferPointer(Self.parts(of:))
        guard let (typeOffsets, subtypeOffsets) = found else { return nil }
        type = whole.cut(typeOffsets)
        subtype = whole.cut(subtypeOffsets)
    }

    /// The byte offsets of the type and the subtype, without spaces and tabs around them and
    /// without parameters, or `nil` unless both are there and there is one slash between them.
    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> (Range<Int>, Range<Int>)? {
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        guard let slash = bytes[..<end].firstIndex(of: UInt8(ascii: "/")),
            !bytes[(slash + 1)..<end].contains(UInt8(ascii: "/"))
        else { return nil }
        let type = trimmingSpaces(0..<slash, in: bytes)
        let subtype = trimmingSpaces((slash + 1)..<end, in: bytes)
        guard !type.isEmpty, !subtype.isEmpty else { return nil }
        return (type, subtype)
    }

    /// `range` without spaces and tabs at either end.
    private static func trimmingSpaces(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = range.lowerBound
        var end = range.upperBound
        while start < end, isSpace(bytes[start]) { start += 1 }
        while start < end, isSpace(bytes[end - 1]) { end -= 1 }
        return start..<end
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
    /// The part between these UTF-8 offsets, which fall on character boundaries.
    fileprivate func cut(_ offsets: Range<Int>) -> Substring {
        let start = utf8.index(utf8.startIndex, offsetBy: offsets.lowerBound)
        let end = utf8.index(start, offsetBy: offsets.count)
        return self[start..<end]
    }
}
