import Foundation
import Testing

@testable import ECNetworking

/// `String(validUTF8:)`, which stands in for `String(validating:as:)` (macOS 15 and iOS 18 only)
/// where a suggested file name and a HAR body tell text from bytes.
@Suite("Valid UTF-8")
struct ValidUTF8Tests {
    @Test(
        "valid UTF-8 decodes to the same text",
        arguments: ["", "plain", "résumé", "日本語", "emoji 🎉", "nul\u{0}inside"])
    func valid(_ text: String) {
        #expect(String(validUTF8: Array(text.utf8)) == text)
        #expect(String(validUTF8: Data(text.utf8)) == text)
    }

    @Test(
        "anything else is nil, never repaired",
        arguments: [
            [0xFF], [0x61, 0x80], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0x61, 0xEF, 0xBF],
        ] as [[UInt8]])
    func invalid(_ bytes: [UInt8]) {
        #expect(String(validUTF8: bytes) == nil)
        #expect(String(validUTF8: Data(bytes)) == nil)
    }
}
