/// Checks header names and values before anything is sent: a CR or LF in a value would let a
/// caller smuggle extra headers or a second request onto the wire.
enum HeaderValidation {
    static func validate(_ headers: HTTPHeaders) throws {
        for field in headers {
            guard isToken(field.name) else {
                throw NetworkError.invalidRequest(reason: "\"\(field.name)\" is not a valid header name")
            }
            if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
                throw NetworkError.invalidRequest(
                    reason: "The value of header \"\(field.name)\" contains a line break or NUL character")
            }
        }
    }

    /// Whether `string` is an HTTP token (RFC 9110 §5.6.2), as header names and methods must be.
    static func isToken(_ string: String) -> Bool {
        !string.isEmpty
            && string.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default:
                    "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}
