import ECNetworking
import ECNetworkingTesting
import Foundation

struct User: Codable, Equatable, Sendable {
    var id: Int
    var name: String
}

let testBaseURL = URL(string: "https://api.example.com/v1")!

/// A network over `session`, with a configuration tweak.
func makeNetwork(
    session: MockSession,
    configure: (inout NetworkConfiguration) -> Void = { _ in }
) -> URLSessionNetwork {
    var configuration = NetworkConfiguration(baseURL: testBaseURL)
    configure(&configuration)
    return URLSessionNetwork(configuration: configuration, session: session)
}
