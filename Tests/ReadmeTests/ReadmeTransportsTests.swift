import ECNetworking
import Foundation
import Testing

/// A transport that answers every request from memory, as the README's "Transports" section
/// shows one.
struct CannedTransport: HTTPTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        TransportResponse(
            statusCode: 200, headers: ["Content-Type": "application/json"], body: ByteStream(Data("[]".utf8)))
    }
}

@Suite("README: transports")
struct ReadmeTransportsTests {
    private let configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!)

    @Test("a network over a transport made with the README's lines")
    func networkOverTransport() async throws {
        let configuration = configuration
        let transport = URLSessionTransport(configuration: .ephemeral)
        let network = URLSessionNetwork(configuration: configuration, transport: transport)
        defer { transport.invalidate() }

        #expect(network.configuration.baseURL == configuration.baseURL)
    }

    @Test("a transport of your own implements one method, and every stage runs over it")
    func ownTransport() async throws {
        let network = URLSessionNetwork(configuration: configuration, transport: CannedTransport())

        let response = try await network.send(
            NetworkRequest(url: configuration.baseURL.appendingPathComponent("users")))

        #expect(response.statusCode == 200)
        #expect(response.body == Data("[]".utf8))
        #expect(response.url?.path == "/users")
    }
}
