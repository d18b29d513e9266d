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
        (socketDescriptor, port) = try LoopbackListener.bindLoopbackSocket()
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    deinit {
        close(socketDescriptor)
    }
}
