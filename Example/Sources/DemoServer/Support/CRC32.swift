/// The CRC-32 checksum (IEEE 802.3, as zip and PNG use it) of a sequence of bytes, computed a
/// chunk at a time: the server checks each uploaded part with it, and a client computes the same
/// value to compare with the receipt.
///
/// ```swift
/// var checksum = CRC32()
/// checksum.update(with: Data("hello".utf8))
/// print(checksum.value)   // 907060870
/// ```
public struct CRC32: Sendable, Hashable {
    /// The checksum of the bytes so far.
    public var value: UInt32 { ~register }

    private var register: UInt32 = 0xFFFF_FFFF

    /// A checksum of no bytes yet.
    public init() {}

    /// Adds `bytes` to the checksum.
    public mutating func update(with bytes: some Sequence<UInt8>) {
        // A local copy: the loop runs per byte, and a stored property would be read and written
        // through `self` each time in a debug build.
        var register = register
        for byte in bytes {
            register = Self.table[Int(UInt8(truncatingIfNeeded: register) ^ byte)] ^ (register >> 8)
        }
        self.register = register
    }

    /// The checksum of `bytes`.
    public static func checksum(of bytes: some Sequence<UInt8>) -> UInt32 {
        var checksum = CRC32()
        checksum.update(with: bytes)
        return checksum.value
    }

    /// The remainder of each byte value, for the reversed polynomial 0xEDB88320.
    private static let table: [UInt32] = (0...255).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }
}
