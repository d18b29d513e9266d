import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

struct SessionToken: Codable, Sendable {
    let value: String
    let expiresAt: Date
}

struct RefreshTokenRequest: Request {
    typealias Response = SessionToken

    var customProperties: CustomProperties {
        var properties = CustomProperties()
        properties[RequiresAuthentication.self] = false
        return properties
    }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("token"))
    }
}

struct SessionAuthenticator: Authenticator {
    let network: any Network

    func apply(_ credential: SessionToken, to request: inout NetworkRequest) {
        request.headers["Authorization"] = "Bearer \(credential.value)"
    }

    func refresh(_ credential: SessionToken?) async throws -> SessionToken {
        try await network.send(RefreshTokenRequest())
    }

    func needsRefresh(_ credential: SessionToken) -> Bool {
        credential.expiresAt < Date().addingTimeInterval(30)
    }
}

struct PlaceOrderRequest: Request {
    typealias Response = Void
    let idempotencyKey: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(method: .post, url: baseURL.appendingPathComponent("orders"))
        request.headers["Idempotency-Key"] = idempotencyKey
        request.customProperties[RetryableRequest.self] = true
        return request
    }
}

struct LiveScoreRequest: Request {
    typealias Response = Data

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("score"))
        request.customProperties[AllowsCoalescing.self] = false
        return request
    }
}

@Suite("README: resilience")
struct ReadmeResilienceTests {
    @Test("retry, authentication, limits and redirects configure and run together")
    func resilience() async throws {
        let session = MockSession()
        session.stub(
            .path("/token"),
            with: MockResponse(json: SessionToken(value: "fresh", expiresAt: Date().addingTimeInterval(3600))))
        session.stub(
            .path("/users") && .header(name: "Authorization", value: "Bearer fresh"),
            with: MockResponse(jsonObject: [[String: Any]]()))
        session.stub(.path("/users"), with: [MockResponse(statusCode: 503, headers: ["Retry-After": "0"])])
        session.stub(.path("/orders"), with: MockResponse(statusCode: 201))
        session.stub(.path("/score"), with: MockResponse(data: Data("1:0".utf8)))
        let baseURL = URL(string: "https://api.example.com")!

        var configuration = NetworkConfiguration(baseURL: baseURL)
        configuration.retryPolicy = RetryPolicy(maximumAttempts: 4, baseDelay: .milliseconds(200))
        configuration.maximumResponseSize = 10 * 1024 * 1024
        configuration.actionTimeout = .seconds(15)
        configuration.redirectPolicy = RedirectPolicy(maximumRedirects: 5)
        let network = URLSessionNetwork(configuration: configuration, session: session)
        network.add(action: AuthenticatingAction(authenticator: SessionAuthenticator(network: network)))

        let users = try await network.send(ListUsersRequest(online: true))
        try await network.send(PlaceOrderRequest(idempotencyKey: UUID().uuidString))
        let score = try await network.send(LiveScoreRequest())

        #expect(users.isEmpty)
        #expect(String(decoding: score, as: UTF8.self) == "1:0")
        let paths = session.recordedRequests.compactMap { $0.url?.path }
        #expect(paths == ["/token", "/users", "/users", "/orders", "/score"])
    }

    @Test("scoped authentication, sign-out and invalidate work as the README shows")
    func signOutAndInvalidate() async throws {
        let session = MockSession()
        session.stub(
            .path("/token"),
            with: MockResponse(json: SessionToken(value: "fresh", expiresAt: Date().addingTimeInterval(3600))))
        session.stub(.path("/users"), with: MockResponse(jsonObject: [[String: Any]]()))
        session.stub(.path("/avatar.png"), with: MockResponse(data: Data([1])))
        let baseURL = URL(string: "https://api.example.com")!
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL), session: session)
        let auth = AuthenticatingAction(
            authenticator: SessionAuthenticator(network: network),
            additionalOrigins: [URL(string: "https://upload.example.com")!],
            refreshTimeout: .seconds(20))
        network.add(action: auth)
        let disk = InMemoryResponseStore()

        _ = try await network.send(ListUsersRequest(online: true))
        _ = try await network.send(NetworkRequest(url: URL(string: "https://cdn.example.net/avatar.png")!))
        await auth.signOut(removingStoredResponsesFrom: [disk])  // the next request logs in afresh
        network.invalidate()  // cancels what is in flight, releases the session

        #expect(await auth.credential == nil)
        await #expect(throws: NetworkError.self) { try await network.send(ListUsersRequest(online: true)) }
        let paths = session.recordedRequests.compactMap { $0.url?.path }
        #expect(paths == ["/token", "/users", "/avatar.png"])
        let authorizations = session.recordedRequests.map { $0.value(forHTTPHeaderField: "Authorization") }
        #expect(authorizations == [nil, "Bearer fresh", nil])
    }

    @Test("bulk cancellation and activity updates work as the README shows")
    func bulkCancellationAndActivity() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 200, delay: .seconds(30)))
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!), session: session)
        let spinner = Log<String>()
        // The stream registers when it is made, so it hears of the send that starts after it,
        // however late the observing task runs.
        let updates = network.activityUpdates()
        let observing = Task {
            for await count in updates {
                spinner.append(count > 0 ? "spinning" : "idle")
            }
        }
        let pending = Task { try await network.send(ListUsersRequest(online: true)) }
        while network.activeRequestCount == 0 { try await Task.sleep(for: .milliseconds(1)) }

        network.cancelAll(of: ListUsersRequest.self)  // or network.cancelAll()

        await #expect(throws: NetworkError.self) { try await pending.value }
        try await waitUntil { spinner.all.last == "idle" }
        observing.cancel()
        await observing.value
        #expect(spinner.all.contains("spinning"))
        #expect(spinner.all.last == "idle")
    }
}
