import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every transport the package ships, each on both of the library's paths through it, so that one
/// suite runs the same cases against each; the AsyncHTTPClient ones exist only when the package is
/// built with its trait.
///
/// A typed send takes a transport's gathering path (the whole exchange on the transport's own
/// threads); the `Streamed` kinds hide it, so the library drives the streaming seam,
/// `HTTPTransport.send(_:)`, as it does for a one-shot request body or a transport of a user's own.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case urlSessionStreamed
    #if AsyncHTTPClient
        case asyncHTTPClient
        case asyncHTTPClientStreamed
    #endif

    var testDescription: String { rawValue }

    /// Whether the kind's responses join repeated header fields into one value: Foundation's
    /// `HTTPURLResponse` does, before the library sees them (see HTTPHeaders+HTTPURLResponse.swift).
    var joinsRepeatedHeaderFields: Bool {
        switch self {
        case .urlSession, .urlSessionStreamed: true
        #if AsyncHTTPClient
            case .asyncHTTPClient, .asyncHTTPClientStreamed: false
        #endif
        }
    }

    /// Whether the kind sends through a `URLSession` (FoundationNetworking on Linux).
    var usesURLSession: Bool {
        rawValue.hasPrefix("urlSession")
    }

    private var isStreamed: Bool {
        rawValue.hasSuffix("Streamed")
    }

    /// `transport` as the network sees it: itself, or only its streaming seam.
    private func seam(of transport: some HTTPTransport) -> any HTTPTransport {
        isStreamed ? StreamingSeam(transport) : transport
    }

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
        return try await withTransport { transport in
            try await body(URLSessionNetwork(configuration: configuration, transport: transport))
        }
    }

    /// Runs `body` with a new transport of this kind, as the networks it makes see it, and
    /// releases the transport afterwards whether `body` threw or not.
    func withTransport<Result>(_ body: (any HTTPTransport) async throws -> Result) async throws -> Result {
        switch self {
        case .urlSession, .urlSessionStreamed:
            let transport = URLSessionTransport(configuration: .ephemeral)
            defer { transport.invalidate() }
            return try await body(seam(of: transport))
        #if AsyncHTTPClient
            case .asyncHTTPClient, .asyncHTTPClientStreamed:
                return try await withShutdown(of: AsyncHTTPClientTransport(), { try await $0.shutdown() }) {
                    try await body(seam(of: $0))
                }
        #endif
        }
    }
}

/// A transport reduced to the streaming seam, as a transport of a user's own would be.
private struct StreamingSeam: HTTPTransport {
    let base: any HTTPTransport

    init(_ base: some HTTPTransport) {
        self.base = base
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await base.send(request)
    }
}
