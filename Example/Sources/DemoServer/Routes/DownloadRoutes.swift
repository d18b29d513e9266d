internal import Hummingbird
internal import NIOCore

/// `GET /files/large?bytes=N`: a body of exactly N bytes with its `Content-Length`, generated in
/// chunks as it is sent, so the server never holds it whole.
///
/// The body is ``LargeFileContent``.
/// `&failAfter=K` (K < N) announces the same length but drops the connection after K bytes: a
/// server failing mid-body, for what a client leaves behind then.
struct DownloadRoutes {
    static let chunkSize = 64 * 1_024
    /// One chunk of the pattern; its size is a multiple of 256, so consecutive chunks continue the pattern.
    static let chunk = ByteBuffer(bytes: LargeFileContent.prefix(chunkSize))

    func register(on router: Router<BasicRequestContext>) {
        router.get("files/large") { request, _ in
            let byteCount = try request.integerQueryParameter("bytes", in: 0...(1 << 32), default: 1_024 * 1_024)
            let failAfter = try request.integerQueryParameter(
                "failAfter", in: 0...max(0, byteCount - 1), default: byteCount)
            let body = ResponseBody(contentLength: byteCount) { writer in
                var sent = 0
                while sent < failAfter {
                    let size = min(failAfter - sent, Self.chunkSize)
                    try await writer.write(Self.chunk.getSlice(at: 0, length: size) ?? ByteBuffer())
                    sent += size
                }
                // Throwing after the head closes the connection with the body short of its length.
                guard sent == byteCount else { throw DroppedConnection() }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }
    }
}
