import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A raw TCP peer on 127.0.0.1 for the hostile-peer tests: each connection is handed to `script`, which
/// reads and writes exactly what a hostile server would (answer before the body, read part of it
/// then close, never read it). The connection closes when `script` returns.
final class HostilePeerServer: @unchecked Sendable {
    // `@unchecked`: the listener is thread-safe, and `state` is only touched under `lock`.
    private struct State {
        var bodyBytes = 0
        var heads: [String] = []
    }

    private let listener: LoopbackListener
    private let lock = NSLock()
    private var state = State()

    var baseURL: URL { listener.baseURL }
    var acceptedConnectionCount: Int { listener.acceptedConnectionCount }
    /// Body bytes read so far by ``Connection/readBody(upTo:)`` and ``Connection/drain()``.
    var bodyBytes: Int { lock.withLock { state.bodyBytes } }
    /// Each request head read, in order.
    var heads: [String] { lock.withLock { state.heads } }

    init(script: @escaping @Sendable (Connection) -> Void) throws {
        listener = try LoopbackListener()
        listener.start { [self] descriptor in script(Connection(descriptor, server: self)) }
    }

    func stop() { listener.stop() }

    fileprivate func counted(_ count: Int) { lock.withLock { state.bodyBytes += count } }
    fileprivate func record(_ head: String) { lock.withLock { state.heads.append(head) } }

    struct Connection: Sendable {
        let descriptor: Int32
        let server: HostilePeerServer

        init(_ descriptor: Int32, server: HostilePeerServer) {
            self.descriptor = descriptor
            self.server = server
        }

        /// Reads up to the end of the head; returns the head's text and the body bytes that came
        /// with it (counted). `nil` when the client went away first.
        @discardableResult
        func readHead() -> (head: String, extra: Int)? {
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let separator = Data("\r\n\r\n".utf8)
            while received.range(of: separator) == nil {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return nil }
                received.append(contentsOf: buffer[..<count])
            }
            let end = received.range(of: separator)!
            let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
            server.record(head)
            let extra = received.count - end.upperBound
            server.counted(extra)
            return (head, extra)
        }

        /// Reads body bytes until `limit` have come on this connection (counting `already`), or the
        /// client goes away; returns how many came.
        @discardableResult
        func readBody(upTo limit: Int, already: Int = 0) -> Int {
            var total = already
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while total < limit {
                let count = recv(descriptor, &buffer, min(buffer.count, limit - total), 0)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                total += count
                server.counted(count)
            }
            return total
        }

        /// Reads and discards until the client closes or the server stops.
        func drain() {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                server.counted(count)
            }
        }

        /// Waits, reading nothing, until the client closes or the server stops (polls the socket
        /// for a hang-up without taking a byte).
        func waitWithoutReading(atMost seconds: Double = 60) {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, !server.listenerStopped {
                var poller = pollfd(fd: descriptor, events: Int16(0x2000), revents: 0)
                if poll(&poller, 1, 50) > 0, poller.revents & Int16(0x2000 | POLLHUP | POLLERR) != 0 { return }
            }
        }

        @discardableResult
        func write(_ text: String) -> Bool { write(Data(text.utf8)) }

        @discardableResult
        func write(_ data: Data) -> Bool {
            LoopbackListener.write(data, to: descriptor)
        }

        /// Half-closes: the client reads the end of the answer, the server can still read.
        func shutdownWrite() { shutdown(descriptor, Int32(SHUT_WR)) }

        /// Makes the close that follows `script`'s return a reset.
        func resetOnClose() {
            var noLinger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &noLinger, socklen_t(MemoryLayout<linger>.size))
        }
    }

    fileprivate var listenerStopped: Bool { listener.isStopped }
}

extension ScratchFolder {
    /// A sparse file of `size` bytes in the folder.
    func file(_ name: String = "upload.bin", size: Int) throws -> URL {
        let file = url.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return file
    }
}
