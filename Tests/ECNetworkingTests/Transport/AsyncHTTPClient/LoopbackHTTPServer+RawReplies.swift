import Foundation
import TestSupport

/// Replies the transport tests need beyond a plain response: repeated header fields, a chunked
/// body that arrives in parts, a body cut short, a head without its body.
extension LoopbackHTTPServer.Reply {
    /// A response whose header fields go out in this order, repeats kept, then `body` with its
    /// `Content-Length` (unless `declaredLength` says otherwise, for a HEAD or a short body).
    static func fields(
        status: Int = 200,
        _ fields: [(name: String, value: String)],
        body: Data = Data(),
        declaredLength: Int? = nil
    ) -> Self {
        var head = "HTTP/1.1 \(status) Status\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        head += "Content-Length: \(declaredLength ?? body.count)\r\nConnection: close\r\n\r\n"
        var bytes = Data(head.utf8)
        bytes.append(body)
        return .raw(bytes)
    }

    /// A body that announces `declaredLength` bytes, sends `body`, and closes the connection.
    static func truncated(declaredLength: Int, body: Data) -> Self {
        fields([], body: body, declaredLength: declaredLength)
    }

    /// A chunked body: `first` at once, `rest` only once `gate` is signalled, then the end.
    static func chunked(first: Data, gate: DispatchSemaphore, rest: [Data]) -> Self {
        func chunk(_ data: Data) -> Data {
            var bytes = Data((String(data.count, radix: 16) + "\r\n").utf8)
            bytes.append(data)
            bytes.append(Data("\r\n".utf8))
            return bytes
        }
        var head = Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".utf8)
        head.append(chunk(first))
        var tail = rest.reduce(into: Data()) { $0.append(chunk($1)) }
        tail.append(Data("0\r\n\r\n".utf8))
        return .raw(head, gate: gate, rest: tail)
    }
}
