import Foundation
import Hummingbird
import NIOCore

/// `GET /bytes/{count}`: a body of `count` bytes made on the fly, for the transfer scenario, so the
/// server can serve a gigabyte without ever holding more than one chunk of it.
enum GeneratedBody {
    /// The route's path, without the count.
    static let path = "bytes"

    /// The chunk written again and again; 64 KiB, as much as one socket write usually takes.
    private static let chunk = ByteBuffer(repeating: 0x2A, count: 65_536)

    /// The address of a body of `byteCount` bytes on the server at `baseURL`.
    static func url(byteCount: Int, baseURL: URL) -> URL {
        baseURL.appendingPathComponent("\(path)/\(byteCount)")
    }

    /// Adds the route to `router`.
    static func addRoute(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: "\(path)/{count}")) { _, context in
            let count = try context.parameters.require("count", as: Int.self)
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: count) { writer in
                    var remaining = count
                    while remaining > 0 {
                        // Each write waits while the connection cannot take more, so a client that
                        // reads slowly holds the server back instead of filling its memory.
                        let size = min(remaining, chunk.readableBytes)
                        try await writer.write(chunk.getSlice(at: chunk.readerIndex, length: size)!)
                        remaining -= size
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
