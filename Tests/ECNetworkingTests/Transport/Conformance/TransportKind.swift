import ECNetworking
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every transport the package ships, so that one suite runs the same cases against each; the
/// AsyncHTTPClient one exists only when the package is built with its trait.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    #if AsyncHTTPClient
        case asyncHTTPClient
    #endif

    var testDescription: String { rawValue }

    /// Runs `body` with a network that sends through a new transport of this kind, configured by
    /// `configure` on top of `baseURL`, and releases the transport afterwards whether `body` threw
    /// or not, so no connection or client outlives the test.
    func withNetwork<Result>(
        baseURL: URL,
        configure: (inout NetworkConfiguration) -> Void = { _ in },
        _ body: (URLSessionNetwork) async throws -> Result
    ) async throws -> Result {
        var configuration = NetworkConfiguration(baseURL: baseURL)
        configure(&configuration)
        switch self {
        case .urlSession:
            // Its own cookie storage: a cookie another test's server set must not reach this one's.
            let transport = URLSessionTransport(configuration: .ephemeral)
            defer { transport.invalidate() }
            return try await body(URLSessionNetwork(configuration: configuration, transport: transport))
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                let transport = AsyncHTTPClientTransport()
                do {
                    let result = try await body(URLSessionNetwork(configuration: configuration, transport: transport))
                    try await transport.shutdown()
                    return result
                } catch {
                    try? await transport.shutdown()
                    throw error
                }
        #endif
        }
    }
}
