import ECNetworking
import Foundation
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOSSL
    import NIOPosix
#endif

/// The transports the interop suite runs over; the AsyncHTTPClient one exists only when the
/// package is built with its trait, as `scripts/interop.sh` builds it.
enum InteropTransport: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlSession
    #if AsyncHTTPClient
        case asyncHTTPClient
    #endif

    var description: String { rawValue }

    /// Runs `body` with a network over a new transport of this kind, configured by `configure`,
    /// and releases the transport afterwards. The AsyncHTTPClient one trusts the interop CA;
    /// FoundationNetworking cannot be made to (see `TLSInteropTests`). With `proxy`, the
    /// AsyncHTTPClient one sends through its tinyproxy; FoundationNetworking takes a proxy only
    /// from the process's `http_proxy` (see `ProxyInteropTests`).
    func withNetwork<Result>(
        baseURL: URL,
        proxy: InteropServers? = nil,
        configure: (inout NetworkConfiguration) -> Void = { _ in },
        _ body: (HTTPNetwork) async throws -> Result
    ) async throws -> Result {
        var configuration = NetworkConfiguration(baseURL: baseURL)
        configure(&configuration)
        switch self {
        case .urlSession:
            let transport = URLSessionTransport(configuration: .ephemeral)
            defer { transport.invalidate() }
            return try await body(HTTPNetwork(configuration: configuration, transport: transport))
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                return try await withInteropClient(configure: { client in
                    guard let proxy else { return }
                    client.proxy = .server(
                        host: "127.0.0.1", port: proxy.proxyPort,
                        authorization: .basic(username: proxy.proxyUser, password: proxy.proxyPassword))
                }) { client in
                    try await body(
                        HTTPNetwork(configuration: configuration, transport: AsyncHTTPClientTransport(client: client)))
                }
        #endif
        }
    }
}

#if AsyncHTTPClient
    /// Runs `body` with an `HTTPClient` configured as the README says (no redirects, its own
    /// tracing off) that trusts the interop CA, changed by `configure`, and shuts it down after.
    func withInteropClient<Result>(
        configure: (inout HTTPClient.Configuration) throws -> Void = { _ in },
        _ body: (HTTPClient) async throws -> Result
    ) async throws -> Result {
        let servers = try requireServers()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(servers.certificateAuthorityPath))
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, decompression: .enabled(limit: .ratio(250)))
        configuration.tracing.tracer = nil
        try configure(&configuration)
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        return try await withShutdown(of: client, { try await $0.shutdown() }, body)
    }
#endif

/// The servers, or a thrown error when the suite runs without `scripts/interop.sh`.
func requireServers() throws -> InteropServers {
    guard let servers = InteropServers.current else { throw InteropUnavailable() }
    return servers
}

/// The suite ran without the servers `scripts/interop.sh` starts.
struct InteropUnavailable: Error {}
