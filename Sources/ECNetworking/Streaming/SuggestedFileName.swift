import Foundation

/// The file name a response suggests for its body, made safe to put in a folder: the
/// `Content-Disposition` parameter `filename*` (RFC 8187) or `filename` (RFC 6266), else the last
/// component of the URL's path, else `download`.
///
/// The server controls every byte of it, so only a plain name survives: no path separator (`/` or
/// `\`) or anything before one, no control character, no leading dot (neither `..` nor a hidden
/// file), and at most 255 bytes, the longest name a file system takes, cut on a character boundary
/// with the extension kept.
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
        var kept = String(String.UnicodeScalarView(last.unicodeScalars.filter { !Self.isControl($0) }))
        kept = kept.trimmingCharacters(in: .whitespaces)
        while kept.hasPrefix(".") { kept.removeFirst() }
        kept = kept.trimmingCharacters(in: .whitespaces)
        guard !kept.isEmpty else { return nil }
        return fitted(kept)
    }

    /// `name` cut to 255 bytes of UTF-8 on a character boundary, keeping an extension of up to 16
    /// bytes.
    private static func fitted(_ name: String) -> String {
        guard name.utf8.count > 255 else { return name }
        var stem = Substring(name)
        var suffix = Substring("")
        if let dot = name.lastIndex(of: "."), dot != name.startIndex, name[dot...].utf8.count <= 16 {
            stem = name[..<dot]
            suffix = name[dot...]
        }
        while stem.utf8.count + suffix.utf8.count > 255, !stem.isEmpty { stem.removeLast() }
        var fitted = String(stem + suffix)
        while fitted.utf8.count > 255 { fitted.removeLast() }
        return fitted
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
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
        case "utf-8": return String(validating: bytes, as: UTF8.self)
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
