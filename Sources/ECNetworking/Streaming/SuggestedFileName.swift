import Foundation

/// The file name a response suggests for its body, made safe to put in a folder: the
/// `Content-Disposition` parameter `filename*` (RFC 8187) or `filename` (RFC 6266), else the last
/// component of the URL's path, else `download`.
///
/// The server controls every byte of it, so only a plain name survives: no path separator (`/` or
/// `\`) or anything before one, no control character, no bidirectional control or other invisible
/// format character (so `photo\u{202E}gpj.exe` cannot show as `photoexe.jpg`), no leading dot
/// (neither `..` nor a hidden file), and at most 255 bytes, the longest name a file system takes,
/// cut on a character boundary with the extension kept.
enum SuggestedFileName {
    /// The name for `response`'s body.
    static func of(_ response: NetworkResponse) -> String {
        if let disposition = response.headers["Content-Disposition"],
            let name = fromContentDisposition(disposition).flatMap(sanitized)
        {
            return name
        }
        if let last = (response.url ?? response.request?.url)?.lastPathComponent, let name = sanitized(last) {
            return name
        }
        return "download"
    }

    /// The file name a `Content-Disposition` field gives, unsanitised: its `filename*` when that
    /// decodes (UTF-8 or ISO-8859-1), else its `filename`.
    static func fromContentDisposition(_ value: String) -> String? {
        var plain: String?
        var extended: String?
        for parameter in parameters(of: value) {
            switch parameter.name.lowercased() {
            case "filename*": extended = extended ?? decodeExtended(parameter.value)
            case "filename": plain = plain ?? parameter.value
            default: break
            }
        }
        return extended ?? plain
    }

    /// `name` as a plain file name, or `nil` when nothing of it is left.
    static func sanitized(_ name: String) -> String? {
        // Whatever came before the last separator, of either kind, is a path, not the name.
        let last = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.last ?? ""
        // Dropped before the dots are trimmed, so that one cannot hide a leading dot.
        var scalars = String.UnicodeScalarView(
            last.unicodeScalars.filter { !Self.isControl($0) && !Self.isInvisibleFormat($0) })
        // Dots and spaces in any order (`. .htaccess`) until neither leads, and spaces at the end.
        while let first = scalars.first, first == "." || first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        let fitted = fitted(String(scalars))
        // Cutting may leave nothing, or an extension alone (`.pdf`), which would be hidden.
        guard !fitted.isEmpty, !fitted.hasPrefix(".") else { return nil }
        return fitted
    }

    /// `name` cut to 255 bytes of UTF-8 on a scalar boundary (a character may be longer than
    /// that, with enough combining marks), keeping an extension of up to 16 bytes.
    private static func fitted(_ name: String) -> String {
        guard name.utf8.count > 255 else { return name }
        var stem = name.unicodeScalars[...]
        var suffix = name.unicodeScalars[name.unicodeScalars.endIndex...]
        if let dot = name.unicodeScalars.lastIndex(of: "."), dot != name.unicodeScalars.startIndex,
            String(name.unicodeScalars[dot...]).utf8.count <= 16
        {
            stem = name.unicodeScalars[..<dot]
            suffix = name.unicodeScalars[dot...]
        }
        let room = 255 - String(suffix).utf8.count
        var stemBytes = String(stem).utf8.count
        while stemBytes > room, let last = stem.last {
            stem.removeLast()
            stemBytes -= String(last).utf8.count
        }
        // Cut just after a space, a name without an extension would end on it, and made safe again
        // (trailing spaces trimmed) it would change.
        if suffix.isEmpty {
            while let last = stem.last, last.properties.isWhitespace { stem.removeLast() }
        }
        return String(String.UnicodeScalarView(stem)) + String(String.UnicodeScalarView(suffix))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// Whether `scalar` is an invisible format character (Unicode's general category Cf) that a
    /// name must not carry. The bidirectional controls (U+200E, U+200F, U+061C, U+202A–U+202E,
    /// U+2066–U+2069) change the order a name is shown in, so that `photo\u{202E}gpj.exe`, an
    /// executable, shows as `photoexe.jpg`; the others (U+200B, U+2060, U+FEFF, U+00AD, the tag
    /// characters) hide a difference between two names that look the same. Dropped, as control
    /// characters are: the name then shows in the order its characters are stored, with its real
    /// extension last.
    /// The zero-width non-joiner and joiner (U+200C, U+200D) stay: they reorder nothing, and
    /// words in Persian or the Indic scripts, and emoji sequences, need them.
    private static func isInvisibleFormat(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .format && scalar != "\u{200C}" && scalar != "\u{200D}"
    }

    /// The `name=value` parameters after the disposition type, values unquoted (a backslash
    /// escapes the next character in a quoted string).
    private static func parameters(of value: String) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        var scalars = Substring(value).unicodeScalars[...]
        // The disposition type, up to the first `;`.
        guard let firstSemicolon = scalars.firstIndex(of: ";") else { return [] }
        scalars = scalars[scalars.index(after: firstSemicolon)...]
        while !scalars.isEmpty {
            scalars = scalars.drop { $0 == " " || $0 == "\t" }
            let nameEnd = scalars.firstIndex { $0 == "=" || $0 == ";" } ?? scalars.endIndex
            let name = String(String.UnicodeScalarView(scalars[..<nameEnd])).trimmingCharacters(in: .whitespaces)
            scalars = scalars[nameEnd...]
            guard scalars.first == "=" else {
                scalars = scalars.dropFirst()
                continue
            }
            scalars = scalars.dropFirst().drop { $0 == " " || $0 == "\t" }
            var parameterValue = String.UnicodeScalarView()
            if scalars.first == "\"" {
                scalars = scalars.dropFirst()
                while let scalar = scalars.popFirst(), scalar != "\"" {
                    if scalar == "\\", let escaped = scalars.popFirst() {
                        parameterValue.append(escaped)
                    } else {
                        parameterValue.append(scalar)
                    }
                }
                scalars = scalars.drop { $0 != ";" }
            } else {
                let end = scalars.firstIndex(of: ";") ?? scalars.endIndex
                parameterValue.append(contentsOf: scalars[..<end])
                scalars = scalars[end...]
            }
            scalars = scalars.dropFirst()
            if !name.isEmpty {
                result.append((name, String(parameterValue).trimmingCharacters(in: .whitespaces)))
            }
        }
        return result
    }

    /// An RFC 8187 `charset'language'percent-encoded` value, decoded; `nil` for another charset
    /// or a bad encoding.
    private static func decodeExtended(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var bytes: [UInt8] = []
        var encoded = parts[2].utf8[...]
        while let byte = encoded.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = encoded.popFirst().flatMap(hexValue), let low = encoded.popFirst().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        switch parts[0].lowercased() {
        case "utf-8": return String(validUTF8: bytes)
        case "iso-8859-1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
