import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("Authentication: applying the credential, opting out, bounded retries")
struct AuthenticationActionTests {
    /// The two ways a request can say it needs no credential.
    enum OptOut: String, CaseIterable, Sendable {
        case typedKey
        case stringKey

        var properties: CustomProperties {
            var properties = CustomProperties()
            switch self {
            case .typedKey: properties[RequiresAuthentication.self] = false
            case .stringKey: properties["requiresAuthentication"] = false
            }
            return properties
        }
    }

    @Test("the current credential is applied to every request")
    func appliesCredential() async throws {
        let session = MockSession()
        session.stub(.header(name: "Authorization", value: "Bearer old"), with: MockResponse(statusCode: 204))
        let authenticator = CountingAuthenticator()
        let action = AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "old"))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        try await network.send(FetchProfile(id: 1))
        try await network.send(FetchProfile(id: 2))

        #expect(session.authorizations == ["Bearer old", "Bearer old"])
        #expect(authenticator.refreshes.count == 0)
        #expect(await action.credential == TestCredential(token: "old"))
    }

    @Test("without a credential the first request refreshes (logs in) first")
    func logsInWithoutCredential() async throws {
        let session = MockSession()
        session.stub(.header(name: "Authorization", value: "Bearer new"), with: MockResponse(statusCode: 204))
        let authenticator = CountingAuthenticator { _, stale in
            #expect(stale == nil)
            return TestCredential(token: "new")
        }
        let action = AuthenticatingAction(authenticator: authenticator)
        let network = makeAuthenticatedNetwork(session: session, action: action)

        try await network.send(FetchProfile(id: 1))
        try await network.send(FetchProfile(id: 2))

        #expect(authenticator.refreshes.count == 1)
        #expect(session.authorizations == ["Bearer new", "Bearer new"])
        #expect(await action.credential == TestCredential(token: "new"))
    }

    @Test("a request that opts out gets no credential, no refresh and no retry", arguments: OptOut.allCases)
    func optOut(_ optOut: OptOut) async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 401))
        let authenticator = CountingAuthenticator()
        // No credential: authenticating the request would need a refresh, so none proves it was skipped.
        let action = AuthenticatingAction(authenticator: authenticator)
        let network = makeAuthenticatedNetwork(session: session, action: action)

        do {
            try await network.send(FetchProfile(id: 1, customProperties: optOut.properties))
            Issue.record("expected the 401 to reach the caller")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 401)
        }

        #expect(session.authorizations == [nil])
        #expect(authenticator.refreshes.count == 0)
    }

    @Test("a 403 is not an authentication failure by default, so it is not retried")
    func forbiddenIsNotRetried() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 403))
        let authenticator = CountingAuthenticator()
        let action = AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "old"))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        await #expect(throws: NetworkError.self) { try await network.send(FetchProfile(id: 1)) }

        #expect(session.recordedRequests.count == 1)
        #expect(authenticator.refreshes.count == 0)
    }

    @Test("a server that always answers 401 gets each send twice, then the caller gets the 401")
    func alwaysUnauthorizedIsRetriedOnce() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 401))
        let authenticator = CountingAuthenticator { call, _ in TestCredential(token: "t\(call)") }
        let action = AuthenticatingAction(
            authenticator: authenticator, credential: TestCredential(token: "t0"), maximumRefreshes: 10)
        let network = makeAuthenticatedNetwork(session: session, action: action)

        for id in 1...3 {
            do {
                try await network.send(FetchProfile(id: id))
                Issue.record("expected the 401 to reach the caller")
            } catch NetworkError.unacceptableStatusCode(let response) {
                #expect(response.statusCode == 401)
            }
        }

        #expect(session.authorizations(profile: 1) == ["Bearer t0", "Bearer t1"])
        #expect(session.authorizations(profile: 2) == ["Bearer t1", "Bearer t2"])
        #expect(session.authorizations(profile: 3) == ["Bearer t2", "Bearer t3"])
        #expect(authenticator.refreshes.count == 3)
    }

    @Test(
        "refreshed credentials found due at once count toward the limit; past it, excessiveRefresh without refreshing")
    func excessiveRefresh() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        // Every credential is due at once, so every send needs a refresh.
        let authenticator = CountingAuthenticator { call, _ in TestCredential(token: "t\(call)", isExpired: true) }
        let action = AuthenticatingAction(
            authenticator: authenticator, credential: TestCredential(token: "t0", isExpired: true),
            maximumRefreshes: 2, within: .seconds(30))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        try await network.send(FetchProfile(id: 1))
        try await network.send(FetchProfile(id: 2))
        await #expect(throws: AuthenticationError.excessiveRefresh(count: 2, window: .seconds(30))) {
            try await network.send(FetchProfile(id: 3))
        }

        #expect(authenticator.refreshes.count == 2)
        #expect(session.authorizations == ["Bearer t1", "Bearer t2"])
    }

    @Test("excessiveRefresh describes itself")
    func excessiveRefreshDescription() {
        let error = AuthenticationError.excessiveRefresh(count: 3, window: .seconds(30))
        #expect(error.errorDescription?.contains("3 refreshed credentials were unusable") == true)
        #expect(error.errorDescription?.contains("30.0 seconds") == true)
        #expect(error.errorDescription?.contains("still rejected") == false)
    }
}
