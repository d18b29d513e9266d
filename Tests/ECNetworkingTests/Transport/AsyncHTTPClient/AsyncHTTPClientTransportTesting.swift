#if AsyncHTTPClient
    import Foundation
    import TestSupport
    import Testing

    @testable import ECNetworking

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Runs `body` with a transport that owns its client, and shuts the client down afterwards
    /// whether `body` threw or not.
    func withOwnedTransport<Result>(
        _ configuration: AsyncHTTPClientTransport.Configuration = .init(),
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        try await withShutdown(
            of: AsyncHTTPClientTransport(configuration: configuration), { try await $0.shutdown() }, body)
    }

    extension AsyncHTTPClientTransport {
        /// Sends a request for `path` on `server`.
        func send(
            _ path: String,
            on server: LoopbackHTTPServer,
            method: HTTPMethod = .get,
            headers: HTTPHeaders = [:],
            body: TransportRequestBody? = nil,
            limit: Int? = nil,
            timeout: Duration? = nil
        ) async throws -> TransportResponse {
            try await send(
                TransportRequest(
                    method: method, url: server.baseURL.appendingPathComponent(path), headers: headers, body: body,
                    timeout: timeout, maximumResponseSize: limit))
        }
    }
#endif
