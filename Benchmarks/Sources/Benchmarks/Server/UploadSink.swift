import Foundation
import Hummingbird
import NIOCore

/// `PUT /upload`: takes a request body of any length as it arrives, keeps none of it, and answers
/// with the number of bytes it received, so the transfer scenario can check an upload arrived
/// whole without the server ever holding it.
enum UploadSink {
    /// The route's path.
    static let path = "upload"

    /// The route's address on the server at `baseURL`.
    static func url(baseURL: URL) -> URL {
        baseURL.appendingPathComponent(path)
    }

    /// Adds the route to `router`.
    static func addRoute(to router: Router<BasicRequestContext>) {
        router.put(RouterPath(stringLiteral: path)) { request, _ in
            var received = 0
            for try await buffer in request.body {
                received += buffer.readableBytes
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "\(received)")))
        }
    }

    /// The byte count in a response body of this route, or `nil` when it holds none.
    static func receivedCount(in body: Data) -> Int? {
        Int(String(decoding: body, as: UTF8.self))
    }
}
