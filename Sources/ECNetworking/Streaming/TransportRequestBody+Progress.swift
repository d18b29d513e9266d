import Foundation

extension TransportRequestBody {
    /// The body's chunks, none larger than `chunkSize`, each reported to `progress` as upload
    /// progress when the transport takes it: for a transport that learns of nothing sent but what
    /// it reads from the body.
    func chunks(reportingTo progress: TransferProgressHandler, chunkSize: Int = 64 * 1024) -> ByteStream {
        let source = chunks(ofSize: chunkSize)
        let expected = length.map(Int64.init)
        return ByteStream(makeIterator: {
            var chunks = source.makeAsyncIterator()
            var pending = Data()
            var sent: Int64 = 0
            return ByteStream.AsyncIterator {
                if pending.isEmpty {
                    guard let chunk = try await chunks.next() else { return nil }
                    pending = chunk
                }
                // A body given whole in memory is one chunk; sent in slices, its progress moves.
                let slice = pending.prefix(chunkSize)
                pending = pending.dropFirst(slice.count)
                if pending.isEmpty { pending = Data() }
                sent += Int64(slice.count)
                progress(TransferProgress(direction: .upload, completedByteCount: sent, expectedByteCount: expected))
                return Data(slice)
            }
        })
    }
}
