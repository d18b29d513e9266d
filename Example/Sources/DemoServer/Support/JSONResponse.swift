import Foundation
internal import Hummingbird
internal import NIOCore

extension Response {
    /// A response whose body is `value` encoded as JSON.
    ///
    /// Keys are sorted so that bodies are byte-for-byte reproducible, which keeps client tests simple.
    static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
