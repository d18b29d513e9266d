import ECNetworking
import Foundation
import TestSupport
import Testing

// The README's and Getting Started's first request and login, verbatim, run against a real HTTP
// server on 127.0.0.1 that wants a bearer token from POST /login, as the Example's server does.

struct LoginAuthenticator: Authenticator {
    // Weak: the network holds the action that holds this authenticator.
    weak var network: (any Network)?
    let username: String
    let password: String

    func apply(_ credential: Token, to request: inout NetworkRequest) {
        request.headers["Authorization"] = "Bearer \(credential.token)"
    }

    func refresh(_ credential: Token?) async throws -> Token {
        guard let network else { throw CancellationError() }
        return try await network.send(LoginRequest(username: username, password: password))
    }
}

/// A server with one account (`demo`, `secret`) whose tokens are `token-1`, `token-2`, …; it
/// answers 401 to the first use of `token-1`, as a server does to an expired token.
private final class LoginServer: Sendable {
    let server: LoopbackHTTPServer
    private let issued = Counter()
    private let rejectedFirstToken = Counter()

    init() throws {
        let issued = issued
        let rejectedFirstToken = rejectedFirstToken
        server = try LoopbackHTTPServer { request in
            if request.method == "POST" && request.path == "/login" {
                let credentials = try? JSONSerialization.jsonObject(with: request.body) as? [String: String]
                guard credentials == ["username": "demo", "password": "secret"] else {
                    return .response(status: 401)
                }
                let token = #"{"token":"token-\#(issued.increment())","expiresIn":3600}"#
                return .response(status: 200, headers: ["Content-Type": "application/json"], body: Data(token.utf8))
            }
            let bearer = request.header("Authorization")
            guard request.path == "/users?online=true", let bearer, bearer.hasPrefix("Bearer token-") else {
                return .response(status: 401)
            }
            if bearer == "Bearer token-1" && rejectedFirstToken.increment() == 1 {
                return .response(status: 401)
            }
            let users = #"[{"id":1,"name":"Ada Lovelace","email":"ada@example.com"}]"#
            return .response(status: 200, headers: ["Content-Type": "application/json"], body: Data(users.utf8))
        }
    }

    var baseURL: URL { server.baseURL }

    deinit { server.stop() }
}

@Suite("README: getting started against a real server", .timeLimit(.minutes(1)))
struct ReadmeGettingStartedTests {
    @Test("the first network logs, and keeps the base URL it was given")
    func firstNetwork() {
        let baseURL = URL(string: "https://api.example.com")!
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL, logging: true))

        #expect(network.configuration.logging)
        #expect(network.configuration.baseURL == baseURL)
        network.invalidate()
    }

    @Test("the login authenticator logs in once, renews a rejected token, and lets the network go")
    func authenticatedRequest() async throws {
        let server = try LoginServer()
        weak var released: URLSessionNetwork?
        do {
            let users = try await send(to: server.baseURL) { released = $0 }
            #expect(users.map(\.name) == ["Ada Lovelace"])
        }

        let sent = server.server.requests.map { "\($0.method) \($0.path) \($0.header("Authorization") ?? "-")" }
        #expect(
            sent == [
                "POST /login -", "GET /users?online=true Bearer token-1",
                "POST /login -", "GET /users?online=true Bearer token-2",
            ])
        // The authenticator holds the network weakly, so nothing keeps it alive once the sends end.
        let deadline = ContinuousClock.now + promptBound
        while released != nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(released == nil)
    }

    /// The snippets, as written: `baseURL` is the server's address.
    private func send(to baseURL: URL, reporting: (URLSessionNetwork) -> Void) async throws -> [User] {
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL, logging: true))
        reporting(network)
        let authenticator = LoginAuthenticator(network: network, username: "demo", password: "secret")
        network.add(action: AuthenticatingAction(authenticator: authenticator))
        let onlineUsers = try await network.send(ListUsersRequest(online: true))
        return onlineUsers
    }
}
