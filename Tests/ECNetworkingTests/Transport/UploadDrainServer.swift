import Foundation

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
/// cannot say.
final class UploadDrainServer: @unchecked Sendable {
    // `@unchecked` because of the socket and thread code; it is safe because every mutable
    // property lives in `state`, which is only touched while `lock` is held, and the rest are
    // constants (the semaphore is thread-safe).

    private struct State {
        var bodyByteCount = 0
        var isPaused = false
        var connections: Set<Int32> = []
        var isListening = true
        var isStopped = false
    }

    /// The port the server listens on.
    let port: Int
    private let listener: Int32
    private let pauseAfter: Int
    private let resumption = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var state = State()

    /// `http://127.0.0.1:port`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The body bytes received so far, over every connection.
    var bodyByteCount: Int { lock.withLock { state.bodyByteCount } }

    /// Whether the server has stopped reading, `pauseAfter` body bytes in.
    var isPaused: Bool { lock.withLock { state.isPaused } }

    /// The number of connections the client has not closed yet.
    var openConnectionCount: Int { lock.withLock { state.connections.count } }

    /// Starts listening on a port the system picks.
    init(pauseAfter: Int) throws {
        #if canImport(Glibc)
            let streamType = Int32(SOCK_STREAM.rawValue)
        #else
            let streamType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
                    && listen(descriptor, 16) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        self.listener = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.pauseAfter = pauseAfter
        Thread { [self] in acceptConnections() }.start()
    }

    /// Lets the server read on after its pause.
    func resume() {
        resumption.signal()
    }

    /// Stops accepting and drops every open connection; every thread then exits. Safe to call twice.
    func stop() {
        resumption.signal()
        lock.withLock {
            guard !state.isStopped else { return }
            state.isStopped = true
            // `shutdown`, unlike `close`, wakes a thread blocked in `accept` or `recv` on Linux.
            if state.isListening { shutdown(listener, Int32(SHUT_RDWR)) }
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            let accepted = lock.withLock {
                guard !state.isStopped else { return false }
                state.connections.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                break
            }
            Thread { [self] in drain(connection) }.start()
        }
        // Marked before closing, so `stop()` never shuts down a descriptor number reused elsewhere.
        lock.withLock { state.isListening = false }
        close(listener)
    }

    /// Reads the head, then the body bytes, pausing once; returns when the client goes away.
    private func drain(_ connection: Int32) {
        defer {
            lock.withLock { _ = state.connections.remove(connection) }
            close(connection)
        }
        var head = Data()
        let separator = Data("\r\n\r\n".utf8)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while head.range(of: separator) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            head.append(contentsOf: buffer[..<count])
        }
        let end = head.range(of: separator)!
        count(head.count - end.upperBound)
        // libcurl waits a second for this before it sends a large body.
        if String(decoding: head[..<end.lowerBound], as: UTF8.self).lowercased().contains("expect: 100-continue") {
            let reply = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            _ = send(connection, reply, reply.count, Self.sendFlags)
        }
        while true {
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
            self.count(count)
        }
    }

    #if canImport(Glibc)
        /// Keeps a client that hung up from killing the test process with `SIGPIPE`.
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let sendFlags: Int32 = 0
    #endif

    private func count(_ bytes: Int) {
        lock.withLock { state.bodyByteCount += bytes }
    }
}
