import Foundation

/// The chunks of a body that arrived and wait for their reader, oldest first, with their total
/// size: the buffer between a transport's thread and the task that reads the body.
///
/// Taking a chunk costs no shifting of the others: the queue keeps an index to the oldest and
/// empties its storage (keeping the capacity) once every chunk is taken. Not thread-safe: its
/// owner keeps it under a lock.
struct ChunkQueue: Sendable {
    private var chunks: [Data] = []
    private var next = 0
    /// The bytes of every chunk waiting.
    private(set) var byteCount = 0

    /// Whether no chunk waits.
    var isEmpty: Bool { next == chunks.count }

    /// Adds `chunk` after the others.
    mutating func append(_ chunk: Data) {
        chunks.append(chunk)
        byteCount += chunk.count
    }

    /// Takes the oldest chunk; the queue must not be empty.
    mutating func removeFirst() -> Data {
        let chunk = chunks[next]
        chunks[next] = Data()
        next += 1
        byteCount -= chunk.count
        if next == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            next = 0
        }
        return chunk
    }

    /// Takes every chunk waiting, oldest first.
    mutating func removeAll() -> ArraySlice<Data> {
        defer {
            chunks = []
            next = 0
            byteCount = 0
        }
        return chunks[next...]
    }
}
