internal import Hummingbird
internal import NIOCore

/// `GET /big?bytes=N`: a body of exactly N bytes, streamed in chunks so the server never holds it whole.
///
/// Byte `i` of the body is `i % 256`, so a client can check that nothing was lost or reordered.
struct DownloadRoutes {
    static let chunkSize = 64 * 1_024
    /// One chunk of the pattern; its size is a multiple of 256, so consecutive chunks continue the pattern.
    static let chunk = ByteBuffer(bytes: (0..<chunkSize).map { UInt8(truncatingIfNeeded: $0) })

    func register(on router: Router<BasicRequestContext>) {
        router.get("big") { request, _ in
            let byteCount = try request.integerQueryParameter("bytes", in: 0...(1 << 32), default: 1_024 * 1_024)
            let body = ResponseBody(contentLength: byteCount) { writer in
                var remaining = byteCount
                while remaining > 0 {
                    let size = min(remaining, Self.chunkSize)
                    try await writer.write(Self.chunk.getSlice(at: 0, length: size) ?? ByteBuffer())
                    remaining -= size
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }
    }
}
