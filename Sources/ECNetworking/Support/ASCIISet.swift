/// A set of ASCII bytes as two 64-bit masks: a membership test is a shift and an AND.
struct ASCIISet: Sendable {
    private let low: UInt64
    private let high: UInt64

    init(_ members: String) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for byte in members.utf8 {
            precondition(byte < 128, "an ASCII set holds ASCII bytes only")
            if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
        }
        self.low = low
        self.high = high
    }

    /// Whether `byte`, which must be below 128, is in the set.
    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << byte) != 0 : high & (1 << (byte &- 64)) != 0
    }
}
