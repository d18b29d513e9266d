import Foundation

/// The 64-bit FNV-1a hash (Fowler, Noll, Vo): fast, stable across processes and platforms, and in
/// no library here (Foundation has no SHA-256 on Linux, and this package takes no dependencies).
///
/// It names files and checks that an entry was not damaged; it is not meant to resist an attacker,
/// which is why a stored entry also keeps its whole key.
enum FowlerNollVoHash {
    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of `bytes`.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return hash
    }

    /// The hash of `data`.
    static func hash(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { hash($0) }
    }

    /// The hash of the UTF-8 bytes of `text`.
    static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of `text` as sixteen lowercase hexadecimal digits, zero-padded so every name has
    /// the same length.
    static func hexadecimalHash(_ text: String) -> String {
        let digits = String(hash(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
