import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

@Suite("Authentication: the credential goes only to the base URL's origin, unless allowed")
struct AuthenticationScopeTests {
    /// A raw GET of `url`, which need not be under the base URL.
    static func get(_ url: String) -> NetworkRequest {
        NetworkRequest(url: URL(string: url)!)
    }

    @Test(
        "requests to another origin go out without the credential, and their 401 is not retried",
        arguments: [
            "https://cdn.example.net/avatar.png",  // another host
            "http://api.example.com/v1/users",  // another scheme
            "https://api.example.com:8443/v1/users",  // another port
            "https://evil.example.com/v1/users",  // a sibling host
        ])
    func otherOriginsGetNothing(url: String) async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 401))
        let authenticator = CountingAuthenticator()
        let action = AuthenticatingAction(authenticator: authenticator, credential: TestCredential(token: "old"))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        await #expect(throws: NetworkError.self) { try await network.send(Self.get(url)) }

        #expect(session.authorizations == [nil])
        #expect(authenticator.refreshes.count == 0)
    }

    @Test("the base URL's origin gets the credential, outside the base path and with an explicit default port")
    func baseOriginGetsTheCredential() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let action = AuthenticatingAction(
            authenticator: CountingAuthenticator(), credential: TestCredential(token: "old"))
        let network = makeAuthenticatedNetwork(session: session, action: action)

        try await network.send(FetchProfile(id: 1))
        _ = try await network.send(Self.get("https://API.example.com/other"))
        _ = try await network.send(Self.get("https://api.example.com:443/v1/users"))

        #expect(session.authorizations == ["Bearer old", "Bearer old", "Bearer old"])
    }

    @Test("an allowed additional origin gets the credential, and its 401 refreshes it")
    func additionalOriginGetsTheCredential() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        session.stub(.header(name: "Authorization", value: "Bearer old"), with: MockResponse(statusCode: 401))
        let authenticator = CountingAuthenticator()
        let action = AuthenticatingAction(
            authenticator: authenticator, credential: TestCredential(token: "old"),
            additionalOrigins: [URL(string: "https://upload.example.com/any/path")!])
        let network = makeAuthenticatedNetwork(session: session, action: action)

        _ = try await network.send(Self.get("https://upload.example.com/files"))
        _ = try await network.send(Self.get("https://cdn.example.net/a"))

        #expect(session.authorizations == ["Bearer old", "Bearer new", nil])
        #expect(authenticator.refreshes.count == 1)
    }

    @Test("FakeNetwork tells the action its base URL too, so actions can be tested without a transport")
    func fakeNetworkAuthenticates() async throws {
        let fake = FakeNetwork(baseURL: testBaseURL, runsActions: true)
        fake.add(
            action: AuthenticatingAction(
                authenticator: CountingAuthenticator(), credential: TestCredential(token: "old")))
        fake.stub(FetchProfile.self, with: ())

        try await fake.send(FetchProfile(id: 1))

        #expect(fake.sentNetworkRequests.first?.headers["Authorization"] == "Bearer old")
    }
}
