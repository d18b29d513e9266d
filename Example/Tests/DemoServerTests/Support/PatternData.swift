import Foundation

extension Data {
    /// `count` bytes where byte `i` is `i % 256`, the pattern `GET /files/large` sends.
    ///
    /// Built by copying one 256-byte block rather than byte by byte: tests share the cooperative thread pool with
    /// the server, and a slow loop here (especially under the thread sanitizer) would starve its handlers.
    static func pattern(count: Int) -> Data {
        let block = Data((0...255).map { UInt8($0) })
        var data = Data(capacity: count + block.count)
        while data.count < count {
            data.append(block)
        }
        return data.prefix(count)
    }
}
