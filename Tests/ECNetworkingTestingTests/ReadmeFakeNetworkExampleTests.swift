import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

struct User: Codable, Equatable, Sendable {
    let id: Int
    let name: String
}

struct ListUsersRequest: Request {
    typealias Response = [User]
    let online: Bool

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("users"))
        request.queryItems = [URLQueryItem(name: "online", value: String(online))]
        return request
    }
}

/// The code under test only knows `any Network`: the app gives it a `URLSessionNetwork`,
/// the tests a `FakeNetwork`.
@MainActor
final class UserService {
    private let network: any Network
    private(set) var names: [String] = []
    private(set) var errorMessage: String?

    init(network: any Network) {
        self.network = network
    }

    func loadOnlineUsers() async {
        do {
            names = try await network.send(ListUsersRequest(online: true)).map(\.name)
            errorMessage = nil
        } catch {
            errorMessage = "Could not load users"
        }
    }
}

@MainActor
@Test func userServiceRecoversAfterATimeout() async {
    let network = FakeNetwork()
    // Answers in order; the last answer repeats.
    network.stub(ListUsersRequest.self, with: [.error(URLError(.timedOut)), .value([User(id: 1, name: "Ada")])])
    let service = UserService(network: network)

    await service.loadOnlineUsers()
    #expect(service.errorMessage == "Could not load users")

    await service.loadOnlineUsers()
    #expect(service.names == ["Ada"])
    #expect(service.errorMessage == nil)
    #expect(network.sentRequests(of: ListUsersRequest.self).map(\.online) == [true, true])
}
