import Foundation

/// How a body is shown in a log line or a description: as text cut at a limit, or as a byte
/// count when it is binary. Callers redact the body first, then preview it, so that a cut never
/// hides a sensitive key from the redaction.
enum BodyPreview {
    /// At most `limit` bytes of `data` as text, with the number of bytes left out, or
    /// `<N bytes of binary data>`.
    static func text(of data: Data, limit: Int) -> String {
        let shown = data.prefix(max(0, limit))
        let remainder = data.count - shown.count
        let suffix = remainder > 0 ? "… (\(remainder) more bytes)" : ""
        guard let text = text(shown, wasCut: remainder > 0) else {
            return "<\(data.count) bytes of binary data>"
        }
        return text + suffix
    }

    /// The bytes as UTF-8 text, or `nil` for binary data. A cut may split a character, so a cut
    /// preview may drop up to three trailing bytes to end on a whole one.
    private static func text(_ bytes: Data, wasCut: Bool) -> String? {
        let maximumTrim = wasCut ? min(3, bytes.count) : 0
        for trim in 0...maximumTrim {
            if let text = String(data: bytes.dropLast(trim), encoding: .utf8) { return text }
        }
        return nil
    }
}
