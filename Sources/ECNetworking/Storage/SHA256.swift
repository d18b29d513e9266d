import Foundation

/// SHA-256 (FIPS 180-4), for the names and key digests of stored entries.
///
/// Foundation has no SHA-256 on Linux and this package takes no dependencies, so it is written
/// out here. It is used where a match must not be forged or a value must not be readable: a
/// partition's identity and a storage key (which may hold a user id) reach the disk only as
/// digests, and a file is served for a key only when the digest it holds is that key's.
enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// The 32-byte digest of `bytes`.
    ///
    /// Written over raw buffers: keys are hashed on every read and write of a disk store, and
    /// array bounds and uniqueness checks would make that several times slower in debug builds.
    static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let length = bytes.count
        // The message, a 0x80 byte, zeros, and the 64-bit length fill whole 64-byte blocks.
        let paddedLength = (length + 8) / 64 * 64 + 64
        let message = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: paddedLength)
        defer { message.deallocate() }
        _ = message.initialize(from: bytes)
        message.baseAddress!.advanced(by: length).initialize(repeating: 0, count: paddedLength - length)
        message[length] = 0x80
        let bitLength = UInt64(length) &* 8
        for index in 0..<8 {
            message[paddedLength - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(index * 8))
        }

        let state = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 8)
        defer { state.deallocate() }
        _ = state.initialize(from: initialState)
        let schedule = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 64)
        defer { schedule.deallocate() }
        roundConstants.withUnsafeBufferPointer { constants in
            for blockStart in stride(from: 0, to: paddedLength, by: 64) {
                compress(message.baseAddress! + blockStart, state: state, schedule: schedule, constants: constants)
            }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        for index in 0..<8 {
            let word = state[index]
            digest[index * 4] = UInt8(truncatingIfNeeded: word >> 24)
            digest[index * 4 + 1] = UInt8(truncatingIfNeeded: word >> 16)
            digest[index * 4 + 2] = UInt8(truncatingIfNeeded: word >> 8)
            digest[index * 4 + 3] = UInt8(truncatingIfNeeded: word)
        }
        return digest
    }

    /// Mixes one 64-byte block into `state`.
    private static func compress(
        _ block: UnsafeMutablePointer<UInt8>,
        state: UnsafeMutableBufferPointer<UInt32>,
        schedule: UnsafeMutableBufferPointer<UInt32>,
        constants: UnsafeBufferPointer<UInt32>
    ) {
        for index in 0..<16 {
            let offset = index * 4
            schedule[index] =
                UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16 | UInt32(block[offset + 2]) << 8
                | UInt32(block[offset + 3])
        }
        for index in 16..<64 {
            let early = schedule[index - 15]
            let late = schedule[index - 2]
            let sigma0 = rotateRight(early, 7) ^ rotateRight(early, 18) ^ (early >> 3)
            let sigma1 = rotateRight(late, 17) ^ rotateRight(late, 19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        for index in 0..<64 {
            let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temporary1 = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
            let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            h = g
            g = f
            f = e
            e = d &+ temporary1
            d = c
            c = b
            b = a
            a = temporary1 &+ sum0 &+ majority
        }
        state[0] = state[0] &+ a
        state[1] = state[1] &+ b
        state[2] = state[2] &+ c
        state[3] = state[3] &+ d
        state[4] = state[4] &+ e
        state[5] = state[5] &+ f
        state[6] = state[6] &+ g
        state[7] = state[7] &+ h
    }

    /// The digest of the UTF-8 bytes of `text`.
    static func hash(_ text: String) -> [UInt8] {
        hash(text.utf8)
    }

    /// The first `byteCount` bytes of the digest of `text` as lowercase hexadecimal digits.
    static func hexadecimalHash(_ text: String, byteCount: Int = 32) -> String {
        hexadecimal(hash(text).prefix(byteCount))
    }

    /// `bytes` as lowercase hexadecimal digits, two per byte.
    static func hexadecimal(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value >> count | value << (32 - count)
    }
}
