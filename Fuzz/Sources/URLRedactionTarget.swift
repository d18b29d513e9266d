// A URL, or text that was meant to be one, shown in a log line, a cURL line or an error: its
// userinfo and the values of sensitive query and fragment parameters must not show.
//
// Input: the text. `SECRETVALUE` plays the secret.
// Checks: when every `SECRETVALUE` of the text is inside userinfo or the value of a sensitive
// parameter, as a reading of the bytes finds them (query after the first `?`, fragment after the
// first `#`, pairs split at `&`, and where a pair's name is not sensitive its parts split at `;`,
// the name before the first `=`, percent-decoded), the redacted text does not hold it; text with
// nothing to redact comes back unchanged; redacting twice changes nothing more; and a URL that
// parsed still parses once redacted with the URL placeholder. The same text as a header's value
// (a `Location` or `Link` a server sends) is redacted word by word, a word ending at a space, a
// tab, an angle bracket or a quote: the same checks hold for each word.

import Foundation

@testable import ECNetworking

enum URLRedactionTarget: FuzzTarget {
    static let name = "url-redaction"
    static let warmUp = Array("https://user:SECRETVALUE@example.com/p?a=1&access_token=SECRETVALUE#sig=x%20y".utf8)
    static let secret = Array("SECRETVALUE".utf8)
    static let redaction = Redaction.default

    static func run(_ input: [UInt8]) {
        let original = text(input)
        checkRedacted(original, placeholder: Redaction.placeholder)
        checkHeaderValue(original)
        if let url = URL(string: original) {
            let redacted = redaction.url(url, placeholder: Redaction.urlPlaceholder)
            check(URL(string: redacted) != nil, "\(url.absoluteString.debugDescription) no longer parses once redacted")
            checkRedacted(url.absoluteString, placeholder: Redaction.urlPlaceholder)
        }
    }

    static func checkRedacted(_ original: String, placeholder: String) {
        let (hidden, hasAnythingToRedact) = hiddenRanges(of: Array(original.utf8))
        checkRedaction(of: original, hidden: hidden, hasAnythingToRedact: hasAnythingToRedact) {
            redaction.urlText($0, placeholder: placeholder)
        }
    }

    /// That `redact` hides every secret of `original` inside `hidden`, leaves it unchanged when it
    /// has nothing to redact, and changes its own result no more.
    static func checkRedaction(
        of original: String, hidden: [Range<Int>], hasAnythingToRedact: Bool, _ redact: (String) -> String
    ) {
        let redacted = redact(original)
        let bytes = Array(original.utf8)
        if !hasAnythingToRedact {
            check(
                Array(redacted.utf8) == bytes,
                "\(original.debugDescription) has nothing to redact, yet became \(redacted.debugDescription)")
        }
        let secrets = occurrences(of: secret, in: bytes)
        let allHidden = secrets.allSatisfy { secret in
            hidden.contains { $0.lowerBound <= secret.lowerBound && secret.upperBound <= $0.upperBound }
        }
        if !secrets.isEmpty, allHidden {
            check(
                occurrences(of: secret, in: Array(redacted.utf8)).isEmpty,
                "the secret shows: \(original.debugDescription) -> \(redacted.debugDescription)")
        }
        check(
            Array(redact(redacted).utf8) == Array(redacted.utf8),
            "redacting \(redacted.debugDescription) again changes it")
    }

    /// The bytes a header value's redaction splits its words at.
    static let wordSeparators = Set(" \t<>\"".utf8)

    /// `original` as a header's value: every secret hidden in its word (see ``hiddenRanges(of:)``)
    /// does not show, a value with nothing to redact comes back unchanged, and redacting again
    /// changes nothing more.
    static func checkHeaderValue(_ original: String) {
        let bytes = Array(original.utf8)
        var hidden: [Range<Int>] = []
        var hasAnythingToRedact = false
        // Words end at a separator, but a placeholder an earlier redaction left is inside its word.
        let placeholder = Array(Redaction.placeholder.utf8)
        var start = 0
        var index = 0
        func endWord(at end: Int) {
            let (ranges, any) = hiddenRanges(of: Array(bytes[start..<end]))
            hidden += ranges.map { ($0.lowerBound + start)..<($0.upperBound + start) }
            hasAnythingToRedact = hasAnythingToRedact || any
            start = end + 1
        }
        while index < bytes.count {
            if bytes[index...].starts(with: placeholder) {
                index += placeholder.count
            } else {
                if wordSeparators.contains(bytes[index]) { endWord(at: index) }
                index += 1
            }
        }
        endWord(at: bytes.count)
        checkRedaction(of: original, hidden: hidden, hasAnythingToRedact: hasAnythingToRedact) {
            redaction.headerValue(name: "Location", value: $0)
        }
    }

    /// The byte ranges that must not show: the userinfo (before the last `@` of the authority that
    /// follows the first `://`) and the value of each pair whose decoded name is sensitive; and
    /// whether there is any userinfo or sensitive pair at all, even an empty one.
    static func hiddenRanges(of bytes: [UInt8]) -> (ranges: [Range<Int>], hasAnythingToRedact: Bool) {
        let fragmentStart = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let queryStart = bytes[..<fragmentStart].firstIndex(of: UInt8(ascii: "?")) ?? fragmentStart
        var ranges: [Range<Int>] = []
        if let schemeEnd = occurrences(of: Array("://".utf8), in: Array(bytes[..<queryStart])).first?.upperBound {
            let authority = bytes[schemeEnd..<queryStart]
            let authorityEnd = authority.firstIndex(of: UInt8(ascii: "/")) ?? authority.endIndex
            if let at = authority[..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) {
                ranges.append(schemeEnd..<at)
            }
        }
        let query = bytes[min(queryStart + 1, fragmentStart)..<fragmentStart]
        let fragment = bytes[min(fragmentStart + 1, bytes.endIndex)...]
        // The value of a pair whose name is sensitive, and, where it is not, of each `;`-separated
        // part of it whose name is: some servers read `;` as a separator too.
        func sensitiveValue(of pair: ArraySlice<UInt8>) -> Range<Int>? {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let name = text(pair[..<equals])
            let decoded = name.removingPercentEncoding ?? name
            guard SensitiveNames.defaultQueryParameters.matches(decoded) else { return nil }
            return (equals + 1)..<pair.endIndex
        }
        for part in [query, fragment] {
            for pair in part.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
                if let value = sensitiveValue(of: pair) {
                    ranges.append(value)
                    continue
                }
                for piece in pair.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
                    if let value = sensitiveValue(of: piece) { ranges.append(value) }
                }
            }
        }
        return (ranges, !ranges.isEmpty)
    }

    /// Where `pattern` occurs in `bytes`.
    static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> [Range<Int>] {
        guard bytes.count >= pattern.count else { return [] }
        return (0...(bytes.count - pattern.count)).filter { bytes[$0...].starts(with: pattern) }.map {
            $0..<($0 + pattern.count)
        }
    }
}
