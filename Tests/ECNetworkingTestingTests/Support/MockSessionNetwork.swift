import ECNetworking
import ECNetworkingTesting
import Foundation

/// A real network over `session`, so MockSession is tested the way apps use it.
func makeNetwork(session: MockSession) -> URLSessionNetwork {
    URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)
}

/// A stubbed response whose body names the stub, so a test can tell which stub answered.
func named(_ name: String) -> MockResponse {
    MockResponse(data: Data(name.utf8))
}

extension URLSessionNetwork {
    /// Sends a raw request and returns the name in the answering stub's body, or the error's text.
    func answer(_ request: NetworkRequest) async -> String {
        do {
            return String(decoding: try await send(request).body, as: UTF8.self)
        } catch let error as MockSessionError {
            if case .noStub = error { return "no stub" }
            return "\(error)"
        } catch {
            return "\(error)"
        }
    }
}
