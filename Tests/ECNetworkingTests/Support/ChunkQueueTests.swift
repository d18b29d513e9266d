import Foundation
import Testing

@testable import ECNetworking

/// The buffer between a transport's thread and a body's reader hands a reader that fell behind the
/// chunks waiting for it joined, so the reader pays per join rather than per chunk.
@Suite("ChunkQueue")
struct ChunkQueueTests {
    @Test("removeFirst(upTo:) joins the oldest chunks that fit, in order, and always takes one")
    func joining() {
        var queue = ChunkQueue()
        for byte in UInt8(1)...5 { queue.append(Data(repeating: byte, count: 100)) }
        #expect(queue.byteCount == 500)

        let joined = queue.removeFirst(upTo: 250)
        #expect(joined == Data(repeating: 1, count: 100) + Data(repeating: 2, count: 100))
        #expect(queue.byteCount == 300)
        // A chunk larger than the limit is still taken, alone.
        #expect(queue.removeFirst(upTo: 10) == Data(repeating: 3, count: 100))
        #expect(queue.removeFirst(upTo: 1_000) == Data(repeating: 4, count: 100) + Data(repeating: 5, count: 100))
        #expect(queue.isEmpty && queue.byteCount == 0)
    }
}
