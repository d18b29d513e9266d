import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("README: coalescing")
struct ReadmeCoalescingTests {
    @Test("with coalescing turned on, identical GETs share one call and an opted-out request does not")
    func coalescing() async throws {
        let session = MockSession()
        session.stub(.path("/users"), with: MockResponse(jsonObject: [[String: Any]](), delay: .seconds(2)))
        session.stub(.path("/score"), with: MockResponse(data: Data("1:0".utf8), delay: .seconds(2)))
        var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!)
        configuration.coalescesIdenticalRequests = true
        let network = URLSessionNetwork(configuration: configuration, session: session)

        async let first = network.send(ListUsersRequest(online: true))
        async let second = network.send(ListUsersRequest(online: true))
        async let score = network.send(LiveScoreRequest())
        async let scoreAgain = network.send(LiveScoreRequest())
        _ = try await (first, second, score, scoreAgain)

        let paths = session.recordedRequests.compactMap { $0.url?.path }
        #expect(paths.sorted() == ["/score", "/score", "/users"])
    }
}
