import Foundation

/// Builds a gzip body that decodes to many repeated bytes while its own size stays under 1% of
/// that, so a test can send a response whose `Content-Length` (the compressed size) is far
/// below a size limit that the decoded body exceeds.
///
/// The package has no compression dependency, so this writes the one deflate block it needs by
/// hand: a literal byte, then "repeat the last 258 bytes" matches, with the fixed Huffman codes of
/// RFC 1951.
enum GzipFixture {
    /// A gzip member whose content is `1 + 258 × matchCount` copies of `byte`.
    static func repeating(_ byte: UInt8, matchCount: Int) -> (compressed: Data, decodedCount: Int) {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL: the only block.
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes.
        bits.writeCode(0x30 + UInt32(byte), length: 8)  // A literal below 144: an 8-bit code from 0x30.
        for _ in 0..<matchCount {
            bits.writeCode(0b1100_0101, length: 8)  // Length code 285: a 258-byte match.
            bits.writeCode(0, length: 5)  // Distance code 0: a distance of 1.
        }
        bits.writeCode(0, length: 7)  // End of block, code 256.
        let decodedCount = 1 + 258 * matchCount

        var member = Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF])
        member.append(contentsOf: bits.bytes)
        let checksum = crc32(of: byte, count: decodedCount)
        for value in [checksum, UInt32(truncatingIfNeeded: decodedCount)] {
            withUnsafeBytes(of: value.littleEndian) { member.append(contentsOf: $0) }
        }
        return (member, decodedCount)
    }

    /// Deflate packs bits from the least significant end of each byte; Huffman codes go in most
    /// significant bit first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 8

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count {
                if used == 8 {
                    bytes.append(0)
                    used = 0
                }
                bytes[bytes.count - 1] |= UInt8((value >> UInt32(index)) & 1) << UInt8(used)
                used += 1
            }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            for index in (0..<length).reversed() {
                write((code >> UInt32(index)) & 1, count: 1)
            }
        }
    }

    /// The CRC-32 gzip stores, of `count` copies of `byte`.
    ///
    /// One byte updates the CRC register by an affine map over GF(2), and `count` copies apply
    /// that map `count` times, so the map is raised to the `count`th power by squaring: a
    /// 100 MB body costs a few thousand steps instead of 100 million table look-ups.
    private static func crc32(of byte: UInt8, count: Int) -> UInt32 {
        let table: [UInt32] = (0..<256).map { entry in
            (0..<8).reduce(UInt32(entry)) { value, _ in value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        }
        let step = AffineMap { crc in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        var power = AffineMap { $0 }
        var square = step
        var remaining = count
        while remaining > 0 {
            if remaining & 1 == 1 { power = power.followed(by: square) }
            square = square.followed(by: square)
            remaining >>= 1
        }
        return power.apply(0xFFFF_FFFF) ^ 0xFFFF_FFFF
    }

    /// `x ↦ L·x ⊕ constant` on 32-bit vectors, with `L` kept as the images of the 32 unit vectors.
    private struct AffineMap {
        var columns: [UInt32]
        var constant: UInt32

        /// The map `function` computes; it must be affine.
        init(_ function: (UInt32) -> UInt32) {
            constant = function(0)
            columns = (0..<32).map { [constant] bit in function(1 << UInt32(bit)) ^ constant }
        }

        private init(columns: [UInt32], constant: UInt32) {
            self.columns = columns
            self.constant = constant
        }

        func apply(_ value: UInt32) -> UInt32 {
            (0..<32).reduce(constant) { result, bit in value >> UInt32(bit) & 1 == 1 ? result ^ columns[bit] : result }
        }

        /// This map, then `next`.
        func followed(by next: AffineMap) -> AffineMap {
            AffineMap(columns: columns.map { next.apply($0) ^ next.constant }, constant: next.apply(constant))
        }
    }
}
