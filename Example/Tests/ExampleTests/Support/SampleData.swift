import Foundation

extension Data {
    /// `count` bytes cycling through a 251-byte block: a prime length, so the pattern never lines
    /// up with buffer or chunk sizes and a lost or repeated chunk changes the bytes.
    ///
    /// Built by whole blocks because a byte-by-byte loop over megabytes is slow in debug builds.
    static func sample(count: Int) -> Data {
        let block = Data((0..<251).map { UInt8($0) })
        var data = Data(capacity: count + block.count)
        while data.count < count {
            data.append(block)
        }
        return data.prefix(count)
    }
}
