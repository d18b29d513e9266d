import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests that need real sockets, so the package needs no
/// server dependency.
///
/// It listens on a port the system picks, serves each connection on its own thread, answers every
/// request with what `handler` returns for it, closes the connection after each response (unless
/// created with `keepsConnectionsOpen`), and records every request's headers. A TLS handshake is
/// answered by closing the connection. ``stop()`` wakes every blocked thread, which then exits.
public final class LoopbackHTTPServer: @unchecked Sendable {
    // `@unchecked` because of the socket and thread code; it is safe because every mutable
    // property lives in `state`, which is only touched while `lock` is held, and the rest are
    // constants.

    /// A request as the server read it.
    public struct ReceivedRequest: Sendable {
        /// The method, as sent.
        public let method: String
        /// The path, with the query if any.
        public let path: String
        /// Header values by lower-cased name.
        public let headers: [String: String]
        /// The body, as many bytes as `Content-Length` said.
        public var body = Data()

        /// The value of a header, whatever the case of `name`.
        public func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }
    }

    /// What the server answers.
    public enum Reply: Sendable {
        /// A complete response; `Content-Length` is added unless the status has no body.
        case response(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// A status line and headers declaring `declaredLength` body bytes, then `prefix` of them,
        /// then nothing until the client goes away or the server stops.
        case stall(status: Int = 200, declaredLength: Int, prefix: Data = Data())
        /// `head` written as it is (status line, headers, maybe a first part of the body); then,
        /// with a `gate`, `rest` once the gate is signalled (or after 30 s); then `written` is
        /// signalled, and the connection closes. For replies the other cases cannot express; see
        /// the transport tests' LoopbackHTTPServer+RawReplies.swift.
        case raw(Data, gate: DispatchSemaphore? = nil, rest: Data = Data(), written: DispatchSemaphore? = nil)
        /// Nothing at all: no head, no body, until the client goes away or the server stops.
        case silence
        /// A status line and `headers`, then a chunked body of `chunk` repeated without end, until
        /// the client goes away or the server stops: an error page that never ends. One chunk a
        /// millisecond: at loopback speed, FoundationNetworking (which cannot pause a transfer)
        /// would queue bytes for its delegate faster than it hands them over, and starve every
        /// other request of the test process. With a `gate`, one chunk goes out, then the rest
        /// waits until the gate is signalled (or 30 s), so a test can read the first part before
        /// the flood starts, however slow the machine.
        case endless(status: Int, headers: [String: String] = [:], chunk: Data, gate: DispatchSemaphore? = nil)
        /// `bytes` written as they are, then the connection reset (a TCP RST, not an orderly
        /// close), as a server that crashes mid-response does.
        case reset(Data)
    }

    private struct State {
        var requests: [ReceivedRequest] = []
        var heads: [String] = []
    }

    /// The port the server listens on.
    public var port: Int { listener.port }
    private let listener: LoopbackListener
    private let handler: @Sendable (ReceivedRequest) -> Reply
    private let keepsConnectionsOpen: Bool
    /// How much of a `Content-Length` body is read before the handler answers; `nil` for all of it.
    private let bodyReadLimit: Int?
    private let lock = NSLock()
    private var state = State()

    /// `http://127.0.0.1:port`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Every request received so far, in order.
    public var requests: [ReceivedRequest] {
        lock.withLock { state.requests }
    }

    /// Every request head read so far, in order, as its request line and declared body length,
    /// whether or not its body then came whole: what a test that failed on a request the server
    /// never finished reading reports.
    public var requestHeads: [String] {
        lock.withLock { state.heads }
    }

    /// The number of connections accepted so far, including those that sent no readable request
    /// (a TLS handshake, say).
    public var acceptedConnectionCount: Int {
        listener.acceptedConnectionCount
    }

    /// The number of connections not yet closed; a cancelled transfer's connection must go away.
    public var openConnectionCount: Int {
        listener.openConnectionCount
    }

    /// Starts listening; each request is answered with `handler(request)`. With
    /// `keepsConnectionsOpen` a connection serves one request after another until the client
    /// closes it, as a keep-alive server does, so a client that never lets go of it shows. With
    /// `readingBodiesUpTo`, the handler answers once that many bytes of a `Content-Length` body
    /// have come, as a server that refuses an upload part-way does (the request it gets holds
    /// those bytes only).
    public init(
        keepsConnectionsOpen: Bool = false, readingBodiesUpTo bodyReadLimit: Int? = nil,
        handler: @escaping @Sendable (ReceivedRequest) -> Reply
    ) throws {
        listener = try LoopbackListener()
        self.handler = handler
        self.keepsConnectionsOpen = keepsConnectionsOpen
        self.bodyReadLimit = bodyReadLimit
        listener.start { [self] connection in serve(connection) }
    }

    /// Stops accepting, drops every open connection, and lets every thread exit. Safe to call twice.
    public func stop() {
        listener.stop()
    }

    private func serve(_ connection: Int32) {
        while let request = readRequest(from: connection) {
            guard answer(request, on: connection), keepsConnectionsOpen else { return }
        }
    }

    /// Writes the reply to `request`; `false` when the connection must not serve another one.
    private func answer(_ request: ReceivedRequest, on connection: Int32) -> Bool {
        lock.withLock { state.requests.append(request) }
        switch handler(request) {
        case .response(let status, let headers, let body):
            var allHeaders = headers
            if status != 204 && status != 304 { allHeaders["Content-Length"] = String(body.count) }
            return write(head(status: status, headers: allHeaders), to: connection) && write(body, to: connection)
        case .stall(let status, let declaredLength, let prefix):
            let headers = ["Content-Length": String(declaredLength)]
            guard write(head(status: status, headers: headers), to: connection), write(prefix, to: connection)
            else { return false }
            // Waits until the client closes the connection (or `stop()` shuts it down).
            var buffer = [UInt8](repeating: 0, count: 1_024)
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
            return false
        case .raw(let head, let gate, let rest, let written):
            guard write(head, to: connection) else { return false }
            _ = gate?.wait(timeout: .now() + 30)
            _ = write(rest, to: connection)
            written?.signal()
            return false
        case .endless(let status, let headers, let chunk, let gate):
            let headers = headers.merging(["Transfer-Encoding": "chunked"]) { _, chunked in chunked }
            guard write(head(status: status, headers: headers), to: connection) else {
                return false
            }
            var frame = Data("\(String(chunk.count, radix: 16))\r\n".utf8)
            frame.append(chunk)
            frame.append(Data("\r\n".utf8))
            if let gate {
                guard write(frame, to: connection) else { return false }
                _ = gate.wait(timeout: .now() + 30)
            }
            while write(frame, to: connection) { usleep(1_000) }
            return false
        case .silence:
            var buffer = [UInt8](repeating: 0, count: 1_024)
            while recv(connection, &buffer, buffer.count, 0) > 0 {}
            return false
        case .reset(let bytes):
            _ = write(bytes, to: connection)
            // A zero linger time makes the `close` that follows send a reset instead of a FIN.
            var noLinger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &noLinger, socklen_t(MemoryLayout<linger>.size))
            return false
        }
    }

    private func head(status: Int, headers: [String: String]) -> Data {
        var text = "HTTP/1.1 \(status) \(status < 300 ? "OK" : status < 400 ? "Redirect" : "Error")\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += keepsConnectionsOpen ? "\r\n" : "Connection: close\r\n\r\n"
        return Data(text.utf8)
    }

    /// Reads the request line, the headers and the body, of `Content-Length` bytes or chunked.
    private func readRequest(from connection: Int32) -> ReceivedRequest? {
        var received = Data()
        let separator = Data("\r\n\r\n".utf8)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while received.range(of: separator) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0, received.count < 65_536 else { return nil }
            received.append(contentsOf: buffer[..<count])
            // A TLS handshake record: this server speaks plain HTTP only, so the client is told at
            // once, by the closed connection, instead of waiting for an answer.
            if received.first == 0x16 { return nil }
        }
        guard let end = received.range(of: separator) else { return nil }
        let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        let declared = headers["content-length"].map { " (Content-Length \($0))" } ?? ""
        lock.withLock { state.heads.append("\(lines[0])\(declared)") }
        var body = Data(received[end.upperBound...])
        // libcurl waits a second for this before it sends a large body.
        if headers["expect"]?.lowercased() == "100-continue" {
            _ = write(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection)
        }
        // Reads at least one more byte into `body`; `false` when the client went away.
        func receiveMore() -> Bool {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            body.append(contentsOf: buffer[..<count])
            return true
        }
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            // Chunked framing wins over a Content-Length sent with it (RFC 9112, 6.3).
            var decoded = Data()
            while true {
                while body.range(of: Data("\r\n".utf8)) == nil { guard receiveMore() else { return nil } }
                let lineEnd = body.range(of: Data("\r\n".utf8))!
                let sizeText = String(decoding: body[body.startIndex..<lineEnd.lowerBound], as: UTF8.self)
                guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else { return nil }
                while body.count - (lineEnd.upperBound - body.startIndex) < size + 2 {
                    guard receiveMore() else { return nil }
                }
                decoded.append(body[lineEnd.upperBound..<lineEnd.upperBound + size])
                body = Data(body[(lineEnd.upperBound + size + 2)...])
                if size == 0 { break }
            }
            body = decoded
        } else {
            let length = min(Int(headers["content-length"] ?? "0") ?? 0, bodyReadLimit ?? .max)
            while body.count < length { guard receiveMore() else { return nil } }
        }
        var request = ReceivedRequest(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers)
        request.body = body
        return request
    }

    /// Writes all of `data`; `false` when the client went away.
    private func write(_ data: Data, to connection: Int32) -> Bool {
        LoopbackListener.write(data, to: connection)
    }
}

extension LoopbackHTTPServer.Reply {
    /// A 204 sent only once `gate` is signalled (or after 30 s): a login that answers when the test
    /// says so, rather than after a delay a loaded machine could outrun.
    public static func noContent(after gate: DispatchSemaphore) -> Self {
        .raw(Data(), gate: gate, rest: Data("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n".utf8))
    }
}
