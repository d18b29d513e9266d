import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("Authentication: a refresh that sends, fails offline, or queues", .timeLimit(.minutes(1)))
struct AuthenticationRefreshSafetyTests {
    /// `POST /login`, sent from inside `refresh`; `authenticated` says whether it is (wrongly) left
    /// to require authentication.
    static func loginRequest(authenticated: Bool) -> NetworkRequest {
        var login = NetworkRequest(method: .post, url: testBaseURL.appendingPathComponent("login"))
        if !authenticated { login.customProperties[RequiresAuthentication.self] = false }
        return login
    }

    @Test("an authenticated request sent from inside refresh fails at once, and later sends are not stuck")
    func authenticatedRequestInsideRefreshFails() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let network = makeNetwork(session: session) { $0.coalescesIdenticalRequests = false }
        let loginsAuthenticated = LockedState(true)
        let authenticator = CountingAuthenticator { _, _ in
            _ = try await network.send(Self.loginRequest(authenticated: loginsAuthenticated.withLock { $0 }))
            return TestCredential(token: "new")
        }
        let action = AuthenticatingAction(authenticator: authenticator)
        network.add(action: action)

        let outcome = LockedState<Result<Void, any Error>?>(nil)
        let send = Task {
            do {
                try await network.send(FetchProfile(id: 1))
                outcome.withLock { $0 = .success(()) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
        try await waitUntil { outcome.withLock { $0 != nil } }
        await send.value

        guard case .failure(let error)? = outcome.withLock({ $0 }) else {
            Issue.record("expected the send to fail")
            return
        }
        #expect(error as? AuthenticationError == .authenticatedRequestDuringRefresh)
        #expect(error.localizedDescription.contains("customProperties[RequiresAuthentication.self] = false"))
        #expect(session.recordedRequests.isEmpty)

        // The failed refresh is over: once the login is marked, the next send logs in and goes out.
        loginsAuthenticated.withLock { $0 = false }
        try await network.send(FetchProfile(id: 2))
        #expect(session.recordedRequests.compactMap { $0.url?.lastPathComponent } == ["login", "2"])
        #expect(session.authorizations == [nil, "Bearer new"])
    }

    @Test("refreshes that fail because the device is offline do not count toward the refresh limit")
    func offlineRefreshesDoNotLockOut() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let authenticator = CountingAuthenticator { call, _ in
            if call <= 5 { throw URLError(.notConnectedToInternet) }
            return TestCredential(token: "new")
        }
        let action = AuthenticatingAction(authenticator: authenticator, maximumRefreshes: 3, within: .seconds(30))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        for id in 1...5 {
            await #expect(throws: URLError(.notConnectedToInternet)) { try await network.send(FetchProfile(id: id)) }
        }
        try await network.send(FetchProfile(id: 6))

        #expect(authenticator.refreshes.count == 6)
        #expect(session.authorizations == ["Bearer new"])
    }

    @Test("with one slot, the login request leaves the queue before the sends queued ahead of it")
    func loginJumpsTheQueue() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        session.stub(.pathSuffix("blocker"), with: MockResponse(statusCode: 204, delay: .seconds(30)))
        let network = makeNetwork(session: session) {
            $0.maximumConcurrentRequests = 1
            $0.coalescesIdenticalRequests = false
        }
        let authenticator = CountingAuthenticator { _, _ in
            _ = try await network.send(Self.loginRequest(authenticated: false))
            return TestCredential(token: "new")
        }
        network.add(action: AuthenticatingAction(authenticator: authenticator))
        func unauthenticated(_ name: String) -> NetworkRequest {
            var request = NetworkRequest(url: testBaseURL.appendingPathComponent(name))
            request.customProperties[RequiresAuthentication.self] = false
            return request
        }

        let blocker = Task { try await network.send(unauthenticated("blocker")) }
        try await waitUntil { session.recordedRequests.count == 1 }
        var sends: [Task<Void, any Error>] = []
        for (index, name) in ["a", "b"].enumerated() {
            sends.append(Task { _ = try await network.send(unauthenticated(name)) })
            try await waitUntil { network.admission?.waitingCount == index + 1 }
        }
        // It has no credential yet, so it logs in first; the login queues behind "a" and "b".
        sends.append(Task { try await network.send(FetchProfile(id: 1)) })
        try await waitUntil { network.admission?.waitingCount == 3 }
        blocker.cancel()
        _ = try? await blocker.value
        for send in sends { try await send.value }

        let order = session.recordedRequests.dropFirst().compactMap { $0.url?.lastPathComponent }
        #expect(order == ["login", "a", "b", "1"])
        #expect(authenticator.refreshes.count == 1)
    }

    @Test("a refresh past refreshTimeout fails its waiters, is cancelled, and its late result is never used")
    func refreshTimeout() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let gate = Gate()
        let firstRefreshEnded = Counter()
        let firstRefreshSawCancellation = Counter()
        let authenticator = CountingAuthenticator { call, _ in
            guard call == 1 else { return TestCredential(token: "new") }
            // Ignores cancellation, as a slow login might, and answers only once the test says so.
            await gate.waitIgnoringCancellation()
            if Task.isCancelled { firstRefreshSawCancellation.increment() }
            firstRefreshEnded.increment()
            return TestCredential(token: "late")
        }
        // The limit applies to the second refresh too, which answers at once: far from both, so
        // that a loaded run, which left a task of this process without a thread for over 2 s,
        // does not time the second one out as well.
        let action = AuthenticatingAction(authenticator: authenticator, refreshTimeout: .seconds(8))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        await #expect(throws: AuthenticationError.refreshTimedOut(after: .seconds(8))) {
            try await network.send(FetchProfile(id: 1))
        }
        try await network.send(FetchProfile(id: 2))
        gate.open()
        try await waitUntil { firstRefreshEnded.count == 1 }

        #expect(firstRefreshSawCancellation.count == 1)
        #expect(await action.credential == TestCredential(token: "new"))
        try await network.send(FetchProfile(id: 3))
        #expect(session.authorizations == ["Bearer new", "Bearer new"])
        #expect(authenticator.refreshes.count == 2)
    }

    @Test("rejected refreshed credentials lock refreshes out only for the window, measured on the given clock")
    func limiterFollowsTheClock() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 401))
        let clock = ManualClock()
        let authenticator = CountingAuthenticator { call, _ in TestCredential(token: "t\(call)") }
        let action = AuthenticatingAction(
            authenticator: authenticator, credential: TestCredential(token: "t0"),
            maximumRefreshes: 2, within: .seconds(30), clock: clock)
        let network = makeAuthenticatedNetwork(session: session, action: action)

        for id in 1...2 {
            await #expect(throws: NetworkError.self) { try await network.send(FetchProfile(id: id)) }
        }
        await #expect(throws: AuthenticationError.excessiveRefresh(count: 2, window: .seconds(30))) {
            try await network.send(FetchProfile(id: 3))
        }
        #expect(authenticator.refreshes.count == 2)

        clock.advance(by: .seconds(31))
        await #expect(throws: NetworkError.self) { try await network.send(FetchProfile(id: 4)) }

        #expect(authenticator.refreshes.count == 3)
        #expect(session.authorizations(profile: 4) == ["Bearer t2", "Bearer t3"])
    }

    @Test("a request opted out with either key may be sent from inside refresh", arguments: [true, false])
    func optedOutRequestInsideRefresh(typedKey: Bool) async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let network = makeNetwork(session: session) { $0.coalescesIdenticalRequests = false }
        let authenticator = CountingAuthenticator { _, _ in
            var login = NetworkRequest(method: .post, url: testBaseURL.appendingPathComponent("login"))
            if typedKey {
                login.customProperties[RequiresAuthentication.self] = false
            } else {
                login.customProperties["requiresAuthentication"] = false
            }
            _ = try await network.send(login)
            return TestCredential(token: "new")
        }
        network.add(action: AuthenticatingAction(authenticator: authenticator))

        try await network.send(FetchProfile(id: 1))

        #expect(session.authorizations == [nil, "Bearer new"])
    }
}
