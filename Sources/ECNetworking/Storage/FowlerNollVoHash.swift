import Foundation

/// The 64-bit FNV-1a hash (Fowler, Noll, Vo): fast, stable across processes and platforms, and in
/// no library here (Foundation has no SHA-256 on Linux, and this package takes no dependencies).
///
/// It checks that an entry was not damaged; it is not meant to resist an attacker, which is why
/// file names and key digests use ``SHA256``.
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
}
