import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Authentication: signing out and switching user", .timeLimit(.minutes(1)))
struct AuthenticationSignOutTests {
    @Test("after signOut the next send logs in afresh, from no credential")
    func signOutLogsInAfresh() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let stales = Log<TestCredential?>()
        let authenticator = CountingAuthenticator { call, stale in
            stales.append(stale)
            return TestCredential(token: "user-b")
        }
        let action = AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "user-a"))
        let network = makeAuthenticatedNetwork(session: session, action: action)
        try await network.send(FetchProfile(id: 1))

        await action.signOut()
        #expect(await action.credential == nil)
        try await network.send(FetchProfile(id: 2))

        #expect(stales.all == [nil])
        #expect(session.authorizations == ["Bearer user-a", "Bearer user-b"])
    }

    @Test("resetCredential(to:) switches user without a refresh")
    func resetToAnotherCredential() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let authenticator = CountingAuthenticator()
        let action = AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "user-a"))
        let network = makeAuthenticatedNetwork(session: session, action: action)
        try await network.send(FetchProfile(id: 1))

        await action.resetCredential(to: TestCredential(token: "user-b"))
        try await network.send(FetchProfile(id: 2))

        #expect(authenticator.refreshes.count == 0)
        #expect(session.authorizations == ["Bearer user-a", "Bearer user-b"])
    }

    @Test("signing out during a refresh fails its waiters with credentialReset and never installs its result")
    func signOutDetachesTheRunningRefresh() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let gate = Gate()
        let checks = Counter()
        let firstRefreshEnded = Counter()
        let authenticator = CountingAuthenticator(expiryChecks: checks) { call, _ in
            guard call == 1 else { return TestCredential(token: "user-b") }
            await gate.waitIgnoringCancellation()
            firstRefreshEnded.increment()
            return TestCredential(token: "user-a-renewed")
        }
        let action = AuthenticatingAction(
            authenticator: authenticator, credential: TestCredential(token: "user-a", isExpired: true))
        let network = makeAuthenticatedNetwork(session: session, action: action)
        let waiting = (1...3).map { id in Task { try await network.send(FetchProfile(id: id)) } }
        try await waitUntil { checks.count == 3 && authenticator.refreshes.count == 1 }

        await action.signOut()

        for send in waiting {
            await #expect(throws: AuthenticationError.credentialReset) { try await send.value }
        }
        try await network.send(FetchProfile(id: 4))
        gate.open()
        try await waitUntil { firstRefreshEnded.count == 1 }
        #expect(await action.credential == TestCredential(token: "user-b"))
        try await network.send(FetchProfile(id: 5))
        #expect(session.authorizations == ["Bearer user-b", "Bearer user-b"])
        #expect(authenticator.refreshes.count == 2)
    }

    @Test("a send rejected with the previous user's credential after a reset is not resent with the new one")
    func staleRejectionAfterResetIsNotRetried() async throws {
        let session = MockSession()
        session.stub(
            .header(name: "Authorization", value: "Bearer user-a"),
            with: MockResponse(statusCode: 401, delay: .seconds(1)))
        session.stub(.header(name: "Authorization", value: "Bearer user-b"), with: MockResponse(statusCode: 204))
        let authenticator = CountingAuthenticator()
        let action = AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "user-a"))
        let network = makeAuthenticatedNetwork(session: session, action: action)
        let inFlight = Task { try await network.send(FetchProfile(id: 1)) }
        try await waitUntil { session.recordedRequests.count == 1 }

        await action.resetCredential(to: TestCredential(token: "user-b"))

        await #expect(throws: AuthenticationError.credentialReset) { try await inFlight.value }
        try await network.send(FetchProfile(id: 2))
        #expect(session.authorizations == ["Bearer user-a", "Bearer user-b"])
        #expect(authenticator.refreshes.count == 0)
    }
}
