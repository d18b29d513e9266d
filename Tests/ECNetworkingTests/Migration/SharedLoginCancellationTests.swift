import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ECNetworking 2.x apps logged in from a completion-handler action that held every send arriving
/// meanwhile in a queue of its own and sent the login once. Ported as the migration guide shows,
/// cancelling one type's sends must not fail the other types waiting for that login.
@Suite("Migration: a hand-written login queue and cancelAll(of:)", .timeLimit(.minutes(1)))
struct SharedLoginCancellationTests {
    private struct Profile: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("profile"))
        }
    }

    private struct Settings: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("settings"))
        }
    }

    private struct Login: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(method: .post, url: baseURL.appendingPathComponent("login"))
        }
    }

    /// The 2.x way: a completion-handler action that sends the login once, through the same
    /// network, and answers every send that waited for it when it ends.
    private final class LoginQueueAction: RequestWillBeginAction, @unchecked Sendable {
        // Guarded by `lock`: the action runs on whichever thread each send's stage runs.
        private let lock = NSLock()
        private var token: String?
        private var waiting: [(NetworkRequest, RequestCompletion)] = []
        private weak var network: URLSessionNetwork?

        var waitingCount: Int { lock.withLock { waiting.count } }

        func attach(to network: URLSessionNetwork) {
            lock.withLock { self.network = network }
            network.add(action: self)
        }

        func requestWillBegin(_ request: NetworkRequest, completion: @escaping RequestCompletion) {
            guard !request.url.path.hasSuffix("/login") else { return completion(.success(request)) }
            let (current, startsLogin, network) = lock.withLock { () -> (String?, Bool, URLSessionNetwork?) in
                if let token { return (token, false, nil) }
                waiting.append((request, completion))
                return (nil, waiting.count == 1, self.network)
            }
            if let current { return completion(.success(Self.authorized(request, current))) }
            guard startsLogin, let network else { return }
            network.send(Login()) { [self] result in
                let (token, waiters) = lock.withLock { () -> (String?, [(NetworkRequest, RequestCompletion)]) in
                    if case .success = result { self.token = "T-1" }
                    defer { waiting = [] }
                    return (self.token, waiting)
                }
                for (request, completion) in waiters {
                    switch (result, token) {
                    case (.success, let token?): completion(.success(Self.authorized(request, token)))
                    case (.failure(let error), _): completion(.failure(error))
                    case (.success, nil): completion(.failure(URLError(.userAuthenticationRequired)))
                    }
                }
            }
        }

        private static func authorized(_ request: NetworkRequest, _ token: String) -> NetworkRequest {
            var request = request
            request.headers["Authorization"] = "Bearer \(token)"
            return request
        }
    }

    @Test("cancelAll(of:) ends that type's send at once, and the login it started still answers the others")
    func cancellingOneTypeKeepsTheSharedLogin() async throws {
        // The login answers only once the test lets it, after the cancellation.
        let loginGate = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { request in
            request.path == "/login"
                ? .noContent(after: loginGate)
                : .response(status: 204)
        }
        defer {
            loginGate.signal()
            server.stop()
        }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))
        defer { network.invalidate() }
        let action = LoginQueueAction()
        action.attach(to: network)

        let profile = Task { try await network.send(Profile()) }
        try await waitUntil { server.requests.count == 1 }
        let settings = Task { try await network.send(Settings()) }
        try await waitUntil { action.waitingCount == 2 }

        network.cancelAll(of: Profile.self)
        // Ends before the login does: the send stops waiting for the action's answer.
        let profileError = await #expect(throws: NetworkError.self) { try await profile.value }
        #expect(profileError?.isCancellation == true)

        loginGate.signal()
        try await settings.value
        let paths = server.requests.map(\.path)
        #expect(paths == ["/login", "/settings"], "\(paths)")
        #expect(server.requests.last?.header("Authorization") == "Bearer T-1")
    }
}
