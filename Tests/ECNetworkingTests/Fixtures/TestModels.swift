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

/// A network over a new mock session that answers every request with `response`, with a
/// configuration tweak; returns the session too, for its recorded requests.
func makeStubbedNetwork(
    answering response: MockResponse = MockResponse(statusCode: 200),
    configure: (inout NetworkConfiguration) -> Void = { _ in }
) -> (URLSessionNetwork, MockSession) {
    let session = MockSession()
    session.stub(.any, with: response)
    return (makeNetwork(session: session, configure: configure), session)
}
