import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// Whether the response names a `Content-Length` that is not a length (RFC 9110, section 8.6:
    /// digits, or a list of one length repeated): `0x5`, `1e3`, `2abc`, `5, 10`. libcurl reads the
    /// digits such a field starts with and ends the body there, so a `URLSession` completes with a
    /// truncated body as if it were whole; a transport fails the response instead, as
    /// async-http-client's parser does.
    var hasMalformedContentLength: Bool {
        // A field Foundation read as a number is a length, and costs no lookup; only a response
        // whose length it could not read (none, or not a number) is looked at.
        guard expectedContentLength < 0, let field = value(forHTTPHeaderField: "Content-Length") else { return false }
        return Self.isMalformedContentLength(field)
    }

    /// Whether `field`, a `Content-Length` value, is not a length: digits (at most 18, any longer
    /// overflows what a body can be), or a list of one such length repeated, each between optional
    /// spaces and tabs.
    static func isMalformedContentLength(_ field: String) -> Bool {
        var length: Substring?
        for element in field.split(separator: ",", omittingEmptySubsequences: false) {
            let value = element.trimmingCharacters(in: [" ", "\t"])[...]
            guard !value.isEmpty, value.utf8.count <= 18, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                length.map({ $0 == value }) ?? true
            else { return true }
            length = value
        }
        return false
    }
}
