import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening TCP socket on a port of 127.0.0.1 the system picks, serving each connection it
/// accepts on a thread of its own: what every server of the tests is built on, so that each says
/// only what it does with a connection.
///
/// ``start(serving:)``'s `serve` gets each connection; when it returns, the connection is closed.
/// ``stop()`` wakes every blocked thread (the accepting one and each serving one), which then
/// exits, and lets `serve` go.
public final class LoopbackListener: @unchecked Sendable {
    // `@unchecked` because of the socket and thread code; it is safe because every mutable
    // property lives in `state`, which is only touched while `lock` is held, and the rest are
    // constants.

    private struct State {
        var connections: Set<Int32> = []
        var acceptedConnectionCount = 0
        var isListening = true
        var isStopped = false
    }

    /// The port it listens on.
    public let port: Int
    private let descriptor: Int32
    private let lock = NSLock()
    private var state = State()

    /// `http://127.0.0.1:port`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The number of connections accepted so far.
    public var acceptedConnectionCount: Int {
        lock.withLock { state.acceptedConnectionCount }
    }

    /// The number of connections not yet closed.
    public var openConnectionCount: Int {
        lock.withLock { state.connections.count }
    }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool {
        lock.withLock { state.isStopped }
    }

    /// Starts listening, with a backlog of `backlog` connections; connections wait there until
    /// ``start(serving:)``.
    public init(backlog: Int32 = 128) throws {
        let (descriptor, port) = try Self.bindLoopbackSocket()
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw StartError(call: "listen", code: code)
        }
        self.descriptor = descriptor
        self.port = port
    }

    /// Writes all of `data` to the connection `descriptor`, again after an interruption; `false`
    /// when the peer went away.
    public static func write(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, sendFlags)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
    }

    /// Accepts connections, calling `serve` with each on a thread of its own, until ``stop()``.
    /// `serve` is held until then, and by each serving thread until it returns, not by the
    /// listener: a server that `serve` holds is not kept for ever by its own listener.
    public func start(serving serve: @escaping @Sendable (Int32) -> Void) {
        Thread { [self] in acceptConnections(serving: serve) }.start()
    }

    /// Stops accepting and drops every open connection; every thread then exits. Safe to call twice.
    public func stop() {
        lock.withLock {
            guard !state.isStopped else { return }
            state.isStopped = true
            // `shutdown`, unlike `close`, wakes a thread blocked in `accept` or `recv` on Linux.
            if state.isListening { shutdown(descriptor, Int32(SHUT_RDWR)) }
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    /// A TCP socket bound to a port of 127.0.0.1 the system picks, and the port; not yet listening.
    public static func bindLoopbackSocket() throws -> (descriptor: Int32, port: Int) {
        #if canImport(Glibc)
            let streamType = Int32(SOCK_STREAM.rawValue)
        #else
            let streamType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw StartError(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw StartError(call: "bind", code: code)
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Why a listener could not start.
    public struct StartError: Error {
        /// The socket call that failed.
        public let call: String
        /// Its `errno`.
        public let code: Int32
    }

    #if canImport(Glibc)
        /// The flag for `send` that keeps a client that hung up from killing the test process with
        /// `SIGPIPE` (on Darwin each connection's `SO_NOSIGPIPE` does it instead).
        public static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        /// On Darwin each connection's `SO_NOSIGPIPE` keeps a hung-up client from raising `SIGPIPE`.
        public static let sendFlags: Int32 = 0
    #endif

    private func acceptConnections(serving serve: @escaping @Sendable (Int32) -> Void) {
        while true {
            let connection = accept(descriptor, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            #if !canImport(Glibc)
                // Darwin has no `MSG_NOSIGNAL`; this socket option does the same for the connection.
                var yes: Int32 = 1
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let accepted = lock.withLock {
                guard !state.isStopped else { return false }
                state.connections.insert(connection)
                state.acceptedConnectionCount += 1
                return true
            }
            guard accepted else {
                close(connection)
                break
            }
            Thread { [self] in
                serve(connection)
                lock.withLock { _ = state.connections.remove(connection) }
                close(connection)
            }.start()
        }
        // Marked before closing, so `stop()` never shuts down a descriptor number reused elsewhere.
        lock.withLock { state.isListening = false }
        close(descriptor)
    }
}
