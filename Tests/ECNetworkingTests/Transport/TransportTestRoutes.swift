import Foundation
import TestSupport

/// The canned answers the transport tests' servers give, by path.
enum TransportTestRoutes {
    static let megabyte = 1_048_576
    static let fiveMegabytes = Data(repeating: 0x61, count: 5 * megabyte)
    static let oneMegabyte = Data(repeating: 0x62, count: megabyte)
    /// About 2 MB of "c" once decoded, about 13 kB on the wire.
    static let compressed = GzipFixture.repeating(0x63, matchCount: 8_130)

    /// Answers `request`; `/cross` redirects to `otherOrigin`, when there is one.
    static func reply(
        to request: LoopbackHTTPServer.ReceivedRequest,
        otherOrigin: URL? = nil
    ) -> LoopbackHTTPServer.Reply {
        switch request.path {
        case "/hello":
            return .response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("hello".utf8))
        case "/empty":
            return .response(status: 204)
        case "/big":
            return .response(status: 200, body: fiveMegabytes)
        case "/exact":
            return .response(status: 200, body: oneMegabyte)
        case "/compressed":
            // Content-Length is the compressed size, far below the limit the decoded body exceeds.
            return .response(status: 200, headers: ["Content-Encoding": "gzip"], body: compressed.compressed)
        case "/drip":
            // Declares 5 MB but sends only 1.5 MB, then stalls: only a limit enforced as bytes
            // arrive ends this request.
            return .stall(declaredLength: fiveMegabytes.count, prefix: fiveMegabytes.prefix(megabyte * 3 / 2))
        case "/stall":
            return .stall(declaredLength: 1_000, prefix: Data("partial".utf8))
        case "/loop":
            return .response(status: 302, headers: ["Location": "/loop"])
        case "/login":
            return .response(status: 302, headers: ["Location": "/hello", "Set-Cookie": "token=abc; Path=/"])
        case "/same":
            let host = request.header("Host") ?? "127.0.0.1"
            return .response(status: 302, headers: ["Location": "http://\(host)/hello"])
        case "/cross":
            let target = otherOrigin?.appendingPathComponent("hello").absoluteString ?? "/hello"
            return .response(status: 302, headers: ["Location": target], body: Data("moved".utf8))
        default:
            return .response(status: 404)
        }
    }

    /// A server answering with ``reply(to:otherOrigin:)``.
    static func server(redirectingTo otherOrigin: URL? = nil) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { reply(to: $0, otherOrigin: otherOrigin) }
    }
}
