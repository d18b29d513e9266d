import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

struct Todo: Codable, Equatable, Sendable {
    let id: Int
    let title: String
}

struct CreateTodoRequest: Request {
    typealias Response = Todo
    let title: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("todos"), body: ["title": title])
    }
}

struct BearerTokenAction: RequestWillBeginAction {
    let token: String

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        return request
    }
}

@Test func createTodoSendsTheTokenAndTheJSONBody() async throws {
    // MockSession replaces only the transport: actions, encoding, validation and decoding run for real.
    let session = MockSession()
    let created = MockResponse(statusCode: 201, json: Todo(id: 1, title: "Ship"))
    session.stub(.method(.post) && .path("/todos"), with: created)
    let configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!)
    let network = URLSessionNetwork(configuration: configuration, session: session)
    network.add(action: BearerTokenAction(token: "secret"))

    let todo = try await network.send(CreateTodoRequest(title: "Ship"))

    #expect(todo == Todo(id: 1, title: "Ship"))
    let sent = try #require(session.recordedRequests.first)
    #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
    #expect(sent.httpBody == Data(#"{"title":"Ship"}"#.utf8))
}
