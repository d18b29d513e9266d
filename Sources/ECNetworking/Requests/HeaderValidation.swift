/// Checks header names and values before anything is sent: a CR or LF in a value would let a
/// caller smuggle extra headers or a second request onto the wire.
enum HeaderValidation {
    static func validate(_ headers: HTTPHeaders) throws {
        for field in headers {
            guard isToken(field.name) else {
                throw NetworkError.invalidRequest(reason: "\"\(field.name)\" is not a valid header name")
            }
            if !isFieldValue(field.value) {
                throw NetworkError.invalidRequest(
                    reason: "The value of header \"\(field.name)\" contains a line break or NUL character")
            }
        }
    }

    /// Whether `string` is an HTTP token (RFC 9110 §5.6.2), as header names and methods must be.
    static func isToken(_ string: String) -> Bool {
        var string = string
        // Over the bytes in place, each looked up in a bit set: run for every header of every attempt.
        let tokenBytes = tokenBytes
        return string.withUTF8 { bytes in
            !bytes.isEmpty && bytes.allSatisfy { byte in byte < 128 && tokenBytes.contains(byte) }
        }
    }

    /// Whether `value` has no CR, LF or NUL.
    private static func isFieldValue(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in !bytes.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 } }
    }

    /// The ASCII bytes of a token: letters, digits and `!#$%&'*+-.^_`|~`.
    private static let tokenBytes = ASCIISet(
        "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
}
