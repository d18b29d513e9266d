import Foundation

/// Replaces the values of sensitive keys in JSON text without parsing it into objects: one pass
/// over the bytes that knows strings (and their escapes), keys and values.
///
/// Working on the text keeps the body as it was written (layout, key order, number formats), and
/// still works on what a parser rejects: a preview cut mid-value, newline-delimited JSON, a body
/// with a syntax error. A key is a string followed by `:`; its value (a string, a number or
/// literal, or a whole object or array) becomes the placeholder string. A value cut off by the
/// end of the data is redacted to the end.
enum JSONFieldRedaction {
    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let colon = UInt8(ascii: ":")

    /// `data` with the value of every key for which `isSensitive(keyBytes)` holds replaced by
    /// `placeholder` as a JSON string; `data` itself when there is none.
    static func redact(
        _ data: Data, placeholder: String, isSensitive: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool
    ) -> Data {
        data.withUnsafeBytes { raw in
            redact(raw.bindMemory(to: UInt8.self), original: data, placeholder: placeholder, isSensitive: isSensitive)
        }
    }

    private static func redact(
        _ bytes: UnsafeBufferPointer<UInt8>, original: Data, placeholder: String,
        isSensitive: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool
    ) -> Data {
        let replacement = Array("\"\(placeholder)\"".utf8)
        var output: [UInt8] = []
        var copiedUpTo = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == quote else {
                index += 1
                continue
            }
            let stringEnd = endOfString(in: bytes, from: index)
            let colonIndex = skippingWhitespace(in: bytes, from: stringEnd)
            guard colonIndex < bytes.count, bytes[colonIndex] == colon else {
                index = stringEnd
                continue
            }
            let valueStart = skippingWhitespace(in: bytes, from: colonIndex + 1)
            // The key's bytes between its quotes; a string ending the data has no closing quote.
            let key = bytes[(index + 1)..<max(index + 1, stringEnd - 1)]
            guard isSensitive(key) || key.contains(backslash) && Self.isSensitive(unescaping: key, by: isSensitive)
            else {
                index = valueStart
                continue
            }
            let valueEnd = endOfValue(in: bytes, from: valueStart)
            output += bytes[copiedUpTo..<valueStart]
            output += replacement
            copiedUpTo = valueEnd
            index = valueEnd
        }
        guard copiedUpTo > 0 else { return original }
        output += bytes[copiedUpTo...]
        return Data(output)
    }

    /// Whether the key written with escapes, `pass\u0077ord` or `pass\"word`, is sensitive as a
    /// parser reads it: a JSON parser decodes the escapes, so the server sees `password` however
    /// the key was written. A key whose escapes are malformed is judged by its bytes alone.
    private static func isSensitive(
        unescaping key: Slice<UnsafeBufferPointer<UInt8>>, by isSensitive: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool
    ) -> Bool {
        // Rare enough (a key with a backslash) that decoding it as a JSON string costs nothing
        // that matters, and the decoder handles every escape, surrogate pairs included.
        let literal = Data([quote] + Array(key) + [quote])
        guard let decoded = try? JSONDecoder().decode(String.self, from: literal) else { return false }
        return Array(decoded.utf8).withUnsafeBufferPointer { isSensitive($0[...]) }
    }

    /// The index just past the string that starts with the quote at `start`, or the end.
    private static func endOfString(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case backslash: index += 2
            case quote: return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// The index just past the value that starts at `start`, or the end.
    private static func endOfValue(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < bytes.count else { return bytes.count }
        switch bytes[start] {
        case quote:
            return endOfString(in: bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case quote:
                    index = endOfString(in: bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return bytes.count
        default:
            var index = start
            while index < bytes.count, !isDelimiter(bytes[index]) { index += 1 }
            return index
        }
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || isWhitespace(byte)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func skippingWhitespace(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        return index
    }
}
