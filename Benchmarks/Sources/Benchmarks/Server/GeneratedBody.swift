import Foundation
import Hummingbird
import NIOCore

/// `GET /bytes/{count}`: a body of `count` bytes made on the fly, for the transfer scenario, so the
/// server can serve a gigabyte without ever holding more than one chunk of it; resumable from any
/// byte (`Range: bytes=N-`), and at `/bytes/{count}/break/{offset}` cut off once at `offset`.
enum GeneratedBody {
    /// The route's path, without the count.
    static let path = "bytes"

    /// The chunk written again and again; 64 KiB, as much as one socket write usually takes.
    private static let chunk = ByteBuffer(repeating: 0x2A, count: 65_536)

    /// The address of a body of `byteCount` bytes on the server at `baseURL`.
    static func url(byteCount: Int, baseURL: URL) -> URL {
        baseURL.appendingPathComponent("\(path)/\(byteCount)")
    }

    /// The address of a body of `byteCount` bytes whose first transfer breaks after
    /// `breakingAt` bytes: the connection is closed there, as a server that went away closes it.
    /// A request with `Range: bytes=N-` gets the rest whole.
    static func url(byteCount: Int, breakingAt offset: Int, baseURL: URL) -> URL {
        baseURL.appendingPathComponent("\(path)/\(byteCount)/break/\(offset)")
    }

    /// The error that ends a body early; the server closes the connection on it.
    private struct BrokenOnPurpose: Error {}

    /// Adds the routes to `router`.
    static func addRoute(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: "\(path)/{count}")) { request, context in
            let count = try context.parameters.require("count", as: Int.self)
            return response(count: count, breakingAt: nil, range: request.headers[.range])
        }
        router.get(RouterPath(stringLiteral: "\(path)/{count}/break/{offset}")) { request, context in
            let count = try context.parameters.require("count", as: Int.self)
            let offset = try context.parameters.require("offset", as: Int.self)
            return response(count: count, breakingAt: offset, range: request.headers[.range])
        }
    }

    /// The body from the start of `range` (`bytes=N-`, the only form a resumed download sends)
    /// or whole, with a strong `ETag` so that a download can resume it; a whole body is cut off
    /// after `breakingAt` bytes.
    private static func response(count: Int, breakingAt offset: Int?, range: String?) -> Response {
        let start = range.flatMap(rangeStart) ?? 0
        guard start < count else {
            // Past the end: nothing to send, and a negative length would stop the server.
            return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(count)"])
        }
        // Only the first transfer breaks: a resumption gets the rest whole, wherever it starts.
        let offset = start == 0 ? offset : nil
        var headers: HTTPFields = [.contentType: "application/octet-stream", .eTag: "\"generated-\(count)\""]
        headers[.acceptRanges] = "bytes"
        if start > 0 { headers[.contentRange] = "bytes \(start)-\(count - 1)/\(count)" }
        let length = count - start
        return Response(
            status: start > 0 ? .partialContent : .ok, headers: headers,
            body: ResponseBody(contentLength: length) { writer in
                var position = start
                while position < count {
                    // Each write waits while the connection cannot take more, so a client that
                    // reads slowly holds the server back instead of filling its memory.
                    var size = min(count - position, chunk.readableBytes)
                    if let offset, position < offset { size = min(size, offset - position) }
                    try await writer.write(chunk.getSlice(at: chunk.readerIndex, length: size)!)
                    position += size
                    if position == offset {
                        // Time for the bytes before the break to reach the client: closing drops
                        // whatever is still queued in the server. Generous, since the client checks
                        // that exactly these bytes were kept, and this part is not timed: with the
                        // server in the client's process on 2 cores, one second was not always
                        // enough for the last tens of MiB.
                        try await Task.sleep(for: .seconds(4))
                        throw BrokenOnPurpose()
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// N in `bytes=N-`, or `nil` for any other form.
    private static func rangeStart(_ range: String) -> Int? {
        guard range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst("bytes=".count).dropLast())
    }
}
