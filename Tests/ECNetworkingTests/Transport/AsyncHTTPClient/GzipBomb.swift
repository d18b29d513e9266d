import Foundation

/// A gzip body that decodes to far more than it sends, built in milliseconds.
///
/// ``GzipFixture`` writes every 258-byte match bit by bit: a gigabyte takes it seconds of CPU on
/// the test pool's few threads, stalling every other test. Each match is the same 13 bits, so
/// after the first two bytes its deflate stream repeats every 8 matches (13 bytes); this copies
/// that period from a short fixture. The stream has no end (no end-of-block code, no checksum):
/// it is for readers that must stop long before it, at a size or ratio limit.
enum GzipBomb {
    /// The gzip header and the first 2 + 13 × `periods` bytes of the deflate stream: about
    /// 2,064 × `periods` bytes of "c" once decoded.
    static func body(periods: Int) -> Data {
        let fixture = GzipFixture.repeating(0x63, matchCount: 16).compressed
        let headerAndStart = fixture.prefix(gzipHeaderCount + 2)
        let period = fixture.dropFirst(gzipHeaderCount + 2).prefix(13)
        var bytes = [UInt8]()
        bytes.reserveCapacity(headerAndStart.count + 13 * periods)
        bytes.append(contentsOf: headerAndStart)
        for _ in 0..<periods { bytes.append(contentsOf: period) }
        return Data(bytes)
    }

    /// The number of decoded bytes `periods` yield.
    static func decodedCount(periods: Int) -> Int { 1 + 258 * 8 * periods }

    private static let gzipHeaderCount = 10
}
