internal import Hummingbird

extension ResponseBody {
    /// A body of unknown length that `write` writes a piece at a time, finished after it returns,
    /// and recorded in `recorder` as abandoned when it ends early: a write failing because the
    /// client went away, or the server stopping. A ``DroppedConnection`` `write` throws on purpose
    /// is not recorded.
    static func streamed(
        path: String,
        recorder: RequestRecorder,
        _ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> ResponseBody {
        ResponseBody { writer in
            do {
                try await write(&writer)
                try await writer.finish(nil)
            } catch let error as DroppedConnection {
                throw error
            } catch {
                await recorder.recordAbandonedStream(path: path)
                throw error
            }
        }
    }
}
