import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server on 127.0.0.1 that takes uploads and never answers them: it reads a request's head, then
/// its body, counting the bytes; it stops reading once `pauseAfter` of them have come, until
/// ``resume()``, so that the client's sending stalls there; then it reads on until the client goes
/// away or the server stops.
///
/// For what a transport does when a body ends before its `Content-Length`: the count says how much
/// of the body arrived, which ``LoopbackHTTPServer``, whose replies end in an answer or a close,
/// cannot say. Created with `answersWhenComplete`, it answers `204` once a connection has brought
/// its whole `Content-Length`, keeping none of the body: an upload of any size.
final class UploadDrainServer: @unchecked Sendable {
    // `@unchecked` because of the socket code; it is safe because every mutable property lives in
    // `state`, which is only touched while `lock` is held, and the rest are constants (the
    // listener and the semaphore are thread-safe).

    private struct State {
        var bodyByteCount = 0
        var isPaused = false
        var headers: [[String: String]] = []
    }

    private let listener: LoopbackListener
    private let pauseAfter: Int
    private let resumption = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var state = State()

    /// The port the server listens on.
    var port: Int { listener.port }

    /// `http://127.0.0.1:port`.
    var baseURL: URL { listener.baseURL }

    /// The body bytes received so far, over every connection.
    var bodyByteCount: Int { lock.withLock { state.bodyByteCount } }

    /// The header fields of each request, by lower-cased name, in the order they came.
    var requestHeaders: [[String: String]] { lock.withLock { state.headers } }

    /// Whether the server has stopped reading, `pauseAfter` body bytes in.
    var isPaused: Bool { lock.withLock { state.isPaused } }

    /// The number of connections the client has not closed yet.
    var openConnectionCount: Int { listener.openConnectionCount }

    private let answersWhenComplete: Bool

    /// Starts listening on a port the system picks.
    init(pauseAfter: Int, answersWhenComplete: Bool = false) throws {
        listener = try LoopbackListener(backlog: 16)
        self.pauseAfter = pauseAfter
        self.answersWhenComplete = answersWhenComplete
        listener.start { [self] connection in drain(connection) }
    }

    /// Lets the server read on after its pause.
    func resume() {
        resumption.signal()
    }

    /// Stops accepting and drops every open connection; every thread then exits. Safe to call twice.
    func stop() {
        resumption.signal()
        listener.stop()
    }

    /// Reads the head, then the body bytes, pausing once; returns when the client goes away.
    private func drain(_ connection: Int32) {
        var head = Data()
        let separator = Data("\r\n\r\n".utf8)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while head.range(of: separator) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            head.append(contentsOf: buffer[..<count])
        }
        let end = head.range(of: separator)!
        let length = record(String(decoding: head[..<end.lowerBound], as: UTF8.self))
        var connectionBodyCount = head.count - end.upperBound
        count(connectionBodyCount)
        // libcurl waits a second for this before it sends a large body.
        if String(decoding: head[..<end.lowerBound], as: UTF8.self).lowercased().contains("expect: 100-continue") {
            let reply = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            _ = send(connection, reply, reply.count, LoopbackListener.sendFlags)
        }
        while true {
            if answersWhenComplete, let length, connectionBodyCount >= length {
                let reply = Array("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n".utf8)
                _ = send(connection, reply, reply.count, LoopbackListener.sendFlags)
                return
            }
            let received = bodyByteCount
            if received >= pauseAfter, lock.withLock({ !state.isPaused }) {
                lock.withLock { state.isPaused = true }
                _ = resumption.wait(timeout: .now() + 30)
            }
            // Up to the pause point exactly, then as much as comes.
            let wanted = received < pauseAfter ? min(buffer.count, pauseAfter - received) : buffer.count
            let count = recv(connection, &buffer, wanted, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            connectionBodyCount += count
            self.count(count)
        }
    }

    /// Keeps the header fields of `head`, and returns its `Content-Length`.
    private func record(_ head: String) -> Int? {
        var fields: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        lock.withLock { state.headers.append(fields) }
        return fields["content-length"].flatMap { Int($0) }
    }

    private func count(_ bytes: Int) {
        lock.withLock { state.bodyByteCount += bytes }
    }
}
