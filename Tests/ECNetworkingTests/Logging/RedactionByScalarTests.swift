import Foundation
import Testing

@testable import ECNetworking

// Found with the url-redaction fuzz target's check that a planted secret never shows. A combining
// mark (U+0301) after `&`, `=`, `@` or `#` makes one character with it, so a search by characters
// did not find the separator and left the secret behind it in the text.
@Suite("Redaction splits URLs and forms by Unicode scalar")
struct RedactionByScalarTests {
    private let redaction = Redaction(.default)

    @Test(
        "a secret after a separator a combining mark follows is still redacted",
        arguments: [
            ("https://h/p?a=1&\u{301}token=PLANTED", "https://h/p?a=1&\u{301}token=<redacted>"),
            ("https://h/p?token=\u{301}PLANTED", "https://h/p?token=<redacted>"),
            ("https://user:PLANTED@\u{301}h/p", "https://<redacted>@\u{301}h/p"),
            ("https://h/p#\u{301}x&access_token=PLANTED", "https://h/p#\u{301}x&access_token=<redacted>"),
        ])
    func urlText(text: String, expected: String) {
        let redacted = redaction.urlText(text)

        #expect(Array(redacted.utf8).firstRange(of: Array("PLANTED".utf8)) == nil)
        #expect(Array(redacted.utf8) == Array(expected.utf8))
    }

    @Test("a form body's secret after a combining mark is redacted")
    func formBody() {
        let body = Data("user=ada&\u{301}password=PLANTED".utf8)

        let redacted = redaction.body(body, contentType: "application/x-www-form-urlencoded")

        #expect(String(decoding: redacted, as: UTF8.self) == "user=ada&\u{301}password=<redacted>")
    }
}
