internal import Hummingbird
internal import NIOCore

/// `GET /files/large?bytes=N`: a body of exactly N bytes with its `Content-Length`, generated in
/// chunks as it is sent, so the server never holds it whole; a file server's answer, with a strong
/// `ETag` and byte ranges.
///
/// The body is ``LargeFileContent``.
/// - `&failAfter=K` (K < N) announces the same length but drops the connection after K bytes: a
///   server failing mid-body. Only a whole-body answer fails so; a range is sent whole.
/// - `&version=V` (1 by default) names the body's version, which its `ETag` carries
///   (`"large-N-vV"`): a client resuming with another version's `ETag` gets the whole body again.
/// - `Range: bytes=F-` is answered `206` with the bytes from F on (`Content-Range`), unless an
///   `If-Range` names another `ETag`; F at or past N is answered `416`.
/// - `&name=…` adds `Content-Disposition: attachment; filename="…"`, as written: the client must
///   make it safe.
///
/// Every body counts in ``RequestRecorder/downloadBodiesOpen`` while it is being sent.
struct DownloadRoutes {
    static let chunkSize = 64 * 1_024
    /// One chunk of the pattern; its size is a multiple of 256, so consecutive chunks continue the pattern.
    static let chunk = ByteBuffer(bytes: LargeFileContent.prefix(chunkSize))

    let recorder: RequestRecorder

    func register(on router: Router<BasicRequestContext>) {
        router.get("files/large") { request, _ in
            let byteCount = try request.integerQueryParameter("bytes", in: 0...(1 << 32), default: 1_024 * 1_024)
            let version = try request.integerQueryParameter("version", in: 1...1_000, default: 1)
            let etag = "\"large-\(byteCount)-v\(version)\""
            var headers: HTTPFields = [.contentType: "application/octet-stream", .eTag: etag, .acceptRanges: "bytes"]
            if let name = request.uri.queryParameters.get("name") {
                headers[.contentDisposition] = "attachment; filename=\"\(name)\""
            }
            let first = Self.rangeStart(of: request, etag: etag)
            if let first, first >= byteCount {
                headers[.contentRange] = "bytes */\(byteCount)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            let start = first ?? 0
            let failAfter =
                first == nil
                ? try request.integerQueryParameter("failAfter", in: 0...max(0, byteCount - 1), default: byteCount)
                : byteCount
            if first != nil { headers[.contentRange] = "bytes \(start)-\(byteCount - 1)/\(byteCount)" }
            let body = ResponseBody(contentLength: byteCount - start) { [recorder] writer in
                await recorder.downloadBodyStarted()
                do {
                    try await Self.writePattern(from: start, to: failAfter, with: &writer)
                    // Throwing after the head closes the connection with the body short of its length.
                    guard failAfter == byteCount else { throw DroppedConnection() }
                    try await writer.finish(nil)
                    await recorder.downloadBodyEnded()
                } catch {
                    await recorder.downloadBodyEnded()
                    throw error
                }
            }
            return Response(status: first == nil ? .ok : .partialContent, headers: headers, body: body)
        }
    }

    /// The first byte a `Range: bytes=F-` asks for, when it is to be honoured: no `If-Range`, or
    /// one naming `etag`. Other forms of `Range` are ignored, as RFC 9110 allows.
    private static func rangeStart(of request: Request, etag: String) -> Int? {
        guard let range = request.headers[.range], range.hasPrefix("bytes="), range.hasSuffix("-"),
            let first = Int(range.dropFirst("bytes=".count).dropLast()), first >= 0
        else { return nil }
        if let ifRange = request.headers[.ifRange], ifRange != etag { return nil }
        return first
    }

    /// Writes the pattern's bytes from offset `start` up to `end`, a chunk at a time.
    private static func writePattern(from start: Int, to end: Int, with writer: inout some ResponseBodyWriter)
        async throws
    {
        var sent = start
        while sent < end {
            // The pattern repeats every 256 bytes, so a slice of the chunk from `sent % 256` goes on from `sent`.
            let phase = sent % 256
            let size = min(end - sent, chunkSize - phase)
            try await writer.write(chunk.getSlice(at: phase, length: size) ?? ByteBuffer())
            sent += size
        }
    }
}
