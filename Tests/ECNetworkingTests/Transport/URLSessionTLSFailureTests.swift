import ECNetworking
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failed TLS handshake over `URLSessionTransport` is `.secureConnectionFailed`, whatever the
/// platform reports: FoundationNetworking gives only libcurl's message with code -1 (`.unknown`).
@Suite("URLSessionTransport: a failed TLS handshake", .timeLimit(.minutes(1)))
struct URLSessionTLSFailureTests {
    @Test("a certificate no root trusts fails with secureConnectionFailed, no host or port in its description")
    func untrustedCertificate() async throws {
        let server = try await OpenSSLTestServer.start()
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral)
        defer { transport.invalidate() }
        let url = URL(string: "https://localhost:\(server.port)/?token=planted")!
        let network = HTTPNetwork(configuration: NetworkConfiguration(baseURL: url), transport: transport)
        let error = await networkError { _ = try await network.send(NetworkRequest(url: url)) }
        #expect(error?.transportCode == .secureConnectionFailed, "\(String(describing: error))")
        let description = error?.localizedDescription ?? ""
        #expect(!description.contains("planted") && !description.contains(String(server.port)), "\(description)")
    }
}
