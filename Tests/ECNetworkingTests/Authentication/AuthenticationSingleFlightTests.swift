import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Authentication: one refresh for many concurrent requests")
struct AuthenticationSingleFlightTests {
    private static let concurrentSends = 20

    @Test("20 sends that find the credential due share one refresh and all carry the new token")
    func dueCredentialRefreshedOnce() async throws {
        let session = MockSession()
        session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
        let authenticator = CountingAuthenticator { _, _ in
            try await Task.sleep(for: .milliseconds(20))
            return TestCredential(token: "new")
        }
        let action = AuthenticatingAction(
            authenticator: authenticator, credential: TestCredential(token: "old", isExpired: true))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...Self.concurrentSends {
                group.addTask { try await network.send(FetchProfile(id: id)) }
            }
            try await group.waitForAll()
        }

        #expect(authenticator.refreshes.count == 1)
        #expect(session.authorizations == Array(repeating: "Bearer new", count: Self.concurrentSends))
    }

    @Test("20 sends rejected with 401 share one refresh and are each sent again once with the new token")
    func rejectedCredentialRefreshedOnce() async throws {
        let session = MockSession()
        session.stub(.header(name: "Authorization", value: "Bearer old"), with: MockResponse(statusCode: 401))
        session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
        let authenticator = CountingAuthenticator { _, _ in
            // Slow enough that the other 401s arrive while it runs.
            try await Task.sleep(for: .milliseconds(20))
            return TestCredential(token: "new")
        }
        let action = AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "old"))
        let network = makeAuthenticatedNetwork(session: session, action: action)
        // A send that starts while the refresh runs waits for it and never carries the old token;
        // holding each old-token attempt until all have one makes every send meet the 401.
        let oldTokenAttempts = Counter()
        network.add(
            action: WillBegin { request in
                if request.headers["Authorization"] == "Bearer old" {
                    oldTokenAttempts.increment()
                    try await waitUntil { oldTokenAttempts.count >= Self.concurrentSends }
                }
                return request
            })

        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...Self.concurrentSends {
                group.addTask { try await network.send(FetchProfile(id: id)) }
            }
            try await group.waitForAll()
        }

        #expect(authenticator.refreshes.count == 1)
        #expect(oldTokenAttempts.count == Self.concurrentSends)
        #expect(session.recordedRequests.count == 2 * Self.concurrentSends)
        for id in 1...Self.concurrentSends {
            #expect(session.authorizations(profile: id) == ["Bearer old", "Bearer new"])
        }
        #expect(await action.credential == TestCredential(token: "new"))
    }

    @Test("a 401 for a credential someone else has replaced since is sent again without another refresh")
    func staleRejectionRetriesWithoutRefresh() async throws {
        let session = MockSession()
        session.stub(.header(name: "Authorization", value: "Bearer old"), with: MockResponse(statusCode: 401))
        session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
        let authenticator = CountingAuthenticator()
        let action = AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "old"))
        let network = makeAuthenticatedNetwork(session: session, action: action)
        // Holds profile 1's old-token attempt until profile 2 has had its 401 and the refresh.
        let gate = Gate()
        let held = Counter()
        network.add(
            action: WillBegin { request in
                if request.url.path.hasSuffix("/profiles/1"), request.headers["Authorization"] == "Bearer old" {
                    held.increment()
                    try await gate.wait()
                }
                return request
            })

        let first = Task { try await network.send(FetchProfile(id: 1)) }
        try await waitUntil { held.count == 1 }
        try await network.send(FetchProfile(id: 2))
        gate.open()
        try await first.value

        #expect(authenticator.refreshes.count == 1)
        #expect(session.authorizations(profile: 1) == ["Bearer old", "Bearer new"])
        #expect(session.authorizations(profile: 2) == ["Bearer old", "Bearer new"])
    }

    @Test("a failed refresh fails every waiting send with that very error, once; the next send tries again")
    func failedRefreshFailsEveryWaiter() async throws {
        let sends = 8
        let session = MockSession()
        session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
        let failure = RefreshFailure()
        let checks = Counter()
        let authenticator = CountingAuthenticator(expiryChecks: checks) { call, _ in
            // Each send checks the credential before it waits, so once all have checked, all are
            // waiting for this refresh, however the tasks happen to be scheduled.
            try await waitUntil { checks.count >= sends }
            if call == 1 { throw failure }
            return TestCredential(token: "new")
        }
        let action = AuthenticatingAction(
            authenticator: authenticator, credential: TestCredential(token: "old", isExpired: true))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for id in 1...sends {
                group.addTask {
                    do {
                        try await network.send(FetchProfile(id: id))
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [(any Error)?]()) { $0.append($1) }
        }

        #expect(errors.count == sends)
        #expect(errors.allSatisfy { ($0 as? RefreshFailure) === failure })
        #expect(authenticator.refreshes.count == 1)
        #expect(session.recordedRequests.isEmpty)

        try await network.send(FetchProfile(id: 99))

        #expect(authenticator.refreshes.count == 2)
        #expect(session.authorizations == ["Bearer new"])
    }

    @Test("cancelling the send that started a refresh ends only that send; the refresh goes on for the others")
    func cancellingOneWaiterKeepsTheRefresh() async throws {
        let session = MockSession()
        session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
        let gate = Gate()
        let refreshWasCancelled = Counter()
        let checks = Counter()
        let authenticator = CountingAuthenticator(expiryChecks: checks) { _, _ in
            try await gate.wait()
            if Task.isCancelled { refreshWasCancelled.increment() }
            return TestCredential(token: "new")
        }
        let action = AuthenticatingAction(
            authenticator: authenticator, credential: TestCredential(token: "old", isExpired: true))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        let first = Task { try await network.send(FetchProfile(id: 1)) }
        try await waitUntil { authenticator.refreshes.count == 1 }
        let others = (2...4).map { id in Task { try await network.send(FetchProfile(id: id)) } }
        try await waitUntil { checks.count == 4 }

        first.cancel()
        // It ends while the refresh is still held, without waiting for it.
        do {
            try await first.value
            Issue.record("expected the cancelled send to fail")
        } catch {
            #expect((error as? NetworkError)?.isCancellation == true)
        }
        #expect(await action.credential == TestCredential(token: "old", isExpired: true))
        gate.open()
        for send in others { try await send.value }

        #expect(authenticator.refreshes.count == 1)
        #expect(refreshWasCancelled.count == 0)
        #expect(session.authorizations(profile: 1).isEmpty)
        #expect(session.authorizations == Array(repeating: "Bearer new", count: 3))
    }

    @Test("cancelAll(of:) on the send that started a refresh leaves the refresh and its own login send running")
    func bulkCancellingTheStarterKeepsTheRefresh() async throws {
        struct FirstProfile: Request {
            typealias Response = Void
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                NetworkRequest(method: .get, url: baseURL.appendingPathComponent("profiles/1"))
            }
        }
        let session = MockSession()
        session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
        // The login answers only once the test lets it, after the cancellation: a delay would race
        // the cancellation on a loaded machine.
        let loginGate = DispatchSemaphore(value: 0)
        let loginServer = try LoopbackHTTPServer { _ in
            .noContent(after: loginGate)
        }
        defer {
            loginGate.signal()
            loginServer.stop()
        }
        let login = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: loginServer.baseURL))
        defer { login.invalidate() }
        let checks = Counter()
        let authenticator = CountingAuthenticator(expiryChecks: checks) { _, _ in
            // The refresh's own send: it must not end because the send that started it was cancelled.
            _ = try await login.send(
                NetworkRequest(method: .post, url: loginServer.baseURL.appendingPathComponent("login")))
            return TestCredential(token: "new")
        }
        let action = AuthenticatingAction(
            authenticator: authenticator, credential: TestCredential(token: "old", isExpired: true))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        let first = Task { try await network.send(FirstProfile()) }
        try await waitUntil { authenticator.refreshes.count == 1 }
        let others = (2...4).map { id in Task { try await network.send(FetchProfile(id: id)) } }
        try await waitUntil { checks.count == 4 }

        try await waitUntil { loginServer.requests.count == 1 }
        network.cancelAll(of: FirstProfile.self)

        let firstError = await #expect(throws: NetworkError.self) { try await first.value }
        #expect(firstError?.isCancellation == true)
        loginGate.signal()
        for send in others { try await send.value }
        #expect(authenticator.refreshes.count == 1)
        #expect(session.authorizations(profile: 1).isEmpty)
        for id in 2...4 { #expect(session.authorizations(profile: id) == ["Bearer new"]) }
    }
}
