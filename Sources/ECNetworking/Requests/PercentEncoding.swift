/// Percent-encoding for query strings and form bodies.
///
/// Foundation's `urlQueryAllowed` leaves `+`, `&` and `=` alone, which corrupts values that
/// contain them, so this encodes everything but RFC 3986's unreserved characters.
enum PercentEncoding {
    /// Encodes a query component; a space becomes `%20`.
    static func encodeQueryComponent(_ string: String) -> String {
        encode(string, spaceAsPlus: false)
    }

    /// Encodes a form field (`application/x-www-form-urlencoded`); a space becomes `+`.
    static func encodeFormComponent(_ string: String) -> String {
        encode(string, spaceAsPlus: true)
    }

    private static func encode(_ string: String, spaceAsPlus: Bool) -> String {
        if string.utf8.allSatisfy(isUnreserved) { return string }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count * 3)
        for byte in string.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else if byte == 0x20 && spaceAsPlus {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
