import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port of 127.0.0.1 where nothing listens, held for as long as the value lives: a connection to
/// it is refused at once.
///
/// The port of a stopped ``LoopbackHTTPServer`` will not do: tests run in parallel, and the next
/// server any of them starts may be given that very port, so a send meant to find nobody reaches
/// another test's server (and that test sees a request it never made). This one is bound, so no
/// other socket gets the port, but never listens, so every connection is refused.
public final class ClosedPort: Sendable {
    /// The port.
    public let port: Int
    private let socketDescriptor: Int32

    /// Binds a port the system picks.
    public init() throws {
        #if canImport(Glibc)
            let streamType = Int32(SOCK_STREAM.rawValue)
        #else
            let streamType = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw LoopbackHTTPServer.StartError(call: "socket", code: errno) }
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
            throw LoopbackHTTPServer.StartError(call: "bind", code: code)
        }
        socketDescriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit {
        close(socketDescriptor)
    }
}
