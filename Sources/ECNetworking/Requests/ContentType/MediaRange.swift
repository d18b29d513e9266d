/// A media type or range from a `Content-Type` or `Accept` header, such as `application/json`,
/// `image/*` or `*/*`. Of its parameters only `q=0` is kept, as ``refuses``: the others
/// (`charset`, a nonzero `q`) do not change what a client can read. Type and subtype compare
/// without regard to ASCII case.
///
/// The parts are byte offsets into the header's text, found and compared in the text's own
/// storage: validation runs on every decoded response, and lower-cased copies, substrings cut out,
/// or character-by-character searches cost more there than the rest of the send's own work.
struct MediaRange: Equatable, Sendable {
    /// The text the range was read from.
    private let text: Substring
    /// The byte offsets of the type and of the subtype in ``text``.
    private let type: Range<Int>
    private let subtype: Range<Int>
    /// Whether the range has the quality `q=0`: in an `Accept` header, "not acceptable".
    let refuses: Bool

    /// Parses `text`, or returns `nil` when it is not `type/subtype`.
    init?(_ text: some StringProtocol) {
        let whole = Substring(text)
        guard
            let (type, subtype, refuses) = Self.withBytes(
                of: whole, { bytes in Self.parts(of: bytes).map { ($0.0, $0.1, Self.hasZeroQuality(bytes)) } })
        else { return nil }
        self.text = whole
        self.type = type
        self.subtype = subtype
        self.refuses = refuses
    }

    /// The ranges of an `Accept` header, in order; elements that do not parse are skipped.
    static func list(_ header: String) -> [MediaRange] {
        header.split(separator: ",").compactMap(MediaRange.init)
    }

    static func == (lhs: MediaRange, rhs: MediaRange) -> Bool {
        lhs.withParts { left in
            rhs.withParts { right in
                left.type.equalsIgnoringASCIICase(right.type) && left.subtype.equalsIgnoringASCIICase(right.subtype)
            }
        }
    }

    /// Whether the media type `contentType` falls in this range: `*/*` takes any type, `type/*`
    /// any subtype of its type, and `application/json` (any `…/json`) also the structured
    /// syntax suffix `+json`, as in `application/problem+json`. Its quality is not read.
    func accepts(_ contentType: MediaRange) -> Bool {
        specificity(accepting: contentType) != nil
    }

    /// How specifically this range takes the media type `contentType`, or `nil` when it does not
    /// (see ``accepts(_:)``): 3 for the type itself, 2 for a `+json` type taken as JSON, 1 for
    /// `type/*` and 0 for `*/*`. Of the ranges of an `Accept` header that take a type, the most
    /// specific one's quality is the type's.
    func specificity(accepting contentType: MediaRange) -> Int? {
        withParts { range in contentType.withParts { candidate in Self.specificity(of: range, accepting: candidate) } }
    }

    /// Whether the media type in `contentType` (a `Content-Type` value) falls in one of the ranges
    /// `ranges` name, as checking it against each of them parsed would tell: a range that does not
    /// parse is skipped, and when none parses, any type passes. The texts are read in place, with
    /// no range built: this is the check of every decoded response whose request has no `Accept`.
    static func text(_ contentType: String, fallsInAnyOf ranges: [String]) -> Bool {
        // The commonest case by far, a JSON response to a request for JSON (`application/json`
        // from the media type the response parsed, against the one default), is one comparison:
        // one range with the type's own text takes it if it parses, and passes it if not, since
        // then no range parses. Parsed, it cost every decoded send some 500 instructions.
        if ranges.count == 1, ranges[0] == contentType { return true }
        var typeText = contentType
        return typeText.withUTF8 { typeBytes in
            let typeParts = parts(of: typeBytes)
            // The common case, read without parsing a range: a range whose text is the type's
            // `type/subtype` (parameters aside, as in `application/json; charset=utf-8`), in any
            // case, parses to the same type and subtype, so it takes the type. Compared by index:
            // `elementsEqual` walked the buffers' iterators, about thirty instructions a byte.
            if let (type, subtype) = typeParts {
                let span = UnsafeBufferPointer(rebasing: typeBytes[type.lowerBound..<subtype.upperBound])
                for var range in ranges where range.utf8.count == span.count {
                    if range.withUTF8({ $0.equalsIgnoringASCIICase(span) }) { return true }
                }
            }
            var namesAny = false
            for var range in ranges {
                let accepted = range.withUTF8 { rangeBytes -> Bool? in
                    guard let (rangeType, rangeSubtype) = parts(of: rangeBytes) else { return nil }
                    guard let (type, subtype) = typeParts else { return false }
                    return Self.specificity(
                        of: (rangeBytes[rangeType], rangeBytes[rangeSubtype]),
                        accepting: (typeBytes[type], typeBytes[subtype])) != nil
                }
                guard let accepted else { continue }
                namesAny = true
                if accepted { return true }
            }
            return !namesAny
        }
    }

    /// How specifically the range `range` takes the media type `candidate`; see
    /// ``specificity(accepting:)``.
    private static func specificity(of range: Parts, accepting candidate: Parts) -> Int? {
        let isAnySubtype = range.subtype.elementsEqual("*".utf8)
        if isAnySubtype && range.type.elementsEqual("*".utf8) { return 0 }
        guard range.type.equalsIgnoringASCIICase(candidate.type) else { return nil }
        if isAnySubtype { return 1 }
        if range.subtype.equalsIgnoringASCIICase(candidate.subtype) { return 3 }
        // RFC 6839: a `+json` type is JSON with more meaning, so a JSON client can read it.
        let suffix = "+json".utf8
        let isJSONSuffix =
            range.subtype.equalsIgnoringASCIICase("json".utf8) && candidate.subtype.count > suffix.count
            && candidate.subtype.suffix(suffix.count).equalsIgnoringASCIICase(suffix)
        return isJSONSuffix ? 2 : nil
    }

    /// Whether the parameters of the media range in `bytes` include a quality of zero (`q=0`,
    /// `Q=0.000`, spaces around the parts allowed): RFC 9110's "not acceptable". A quality that
    /// does not parse counts as nonzero, so a malformed one never refuses.
    private static func hasZeroQuality(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var refuses = false
        var parameters = bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).dropFirst()
        while let parameter = parameters.popFirst() {
            guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = trimmingSpaces(parameter.startIndex..<equals, in: bytes)
            guard name.count == 1, bytes[name.lowerBound] | 0x20 == UInt8(ascii: "q") else { continue }
            let value = bytes[trimmingSpaces((equals + 1)..<parameter.endIndex, in: bytes)]
            // qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ); zero is "0" and zeros.
            refuses =
                value.first == UInt8(ascii: "0") && value.count <= 5
                && (value.count == 1
                    || (value[value.startIndex + 1] == UInt8(ascii: ".")
                        && value.dropFirst(2).allSatisfy { $0 == UInt8(ascii: "0") }))
        }
        return refuses
    }

    /// A type and a subtype, as bytes of a text's storage.
    private typealias Parts = (type: Slice<UnsafeBufferPointer<UInt8>>, subtype: Slice<UnsafeBufferPointer<UInt8>>)

    /// The type and the subtype as bytes of the text's storage, for `body`.
    private func withParts<Result>(_ body: (Parts) -> Result) -> Result {
        Self.withBytes(of: text) { bytes in body((bytes[type], bytes[subtype])) }
    }

    /// The UTF-8 bytes of `text` for `body`: those of its storage (a bridged string is made
    /// native first).
    private static func withBytes<Result>(of text: Substring, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result
    {
        var text = text
        return text.withUTF8(body)
    }

    /// The byte offsets of the type and the subtype, without spaces and tabs around them and
    /// without parameters, or `nil` unless both are there and there is one slash between them.
    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> (Range<Int>, Range<Int>)? {
        // One pass to the parameters: the one slash, and no second.
        var slash: Int?
        var end = 0
        while end < bytes.count, bytes[end] != UInt8(ascii: ";") {
            if bytes[end] == UInt8(ascii: "/") {
                guard slash == nil else { return nil }
                slash = end
            }
            end += 1
        }
        guard let slash else { return nil }
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
}
