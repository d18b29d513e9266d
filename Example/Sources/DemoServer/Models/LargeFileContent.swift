import Foundation

/// The content of `GET /files/large`: byte `i` is `i % 256`, so a client can check that nothing
/// was lost or reordered.
public enum LargeFileContent {
    /// The first `count` bytes.
    ///
    /// Built by copying one 256-byte block rather than byte by byte: tests share the cooperative
    /// thread pool with the server, and a slow loop in a debug build would starve its handlers.
    public static func prefix(_ count: Int) -> Data {
        let block = Data((0...255).map { UInt8($0) })
        var data = Data(capacity: count + block.count)
        while data.count < count {
            data.append(block)
        }
        return data.prefix(count)
    }
}
