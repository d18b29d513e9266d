import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// A bearer token that the test decides is expired or not.
struct TestCredential: Sendable, Equatable {
    var token: String
    var isExpired = false
}

/// An authenticator that sends `Authorization: Bearer <token>` and counts, under a lock, how often
/// it refreshes and how often it is asked whether a credential is due.
struct CountingAuthenticator: Authenticator {
    let refreshes = Counter()
    /// Passed in, so that a test's `renew` can wait for a number of checks.
    let expiryChecks: Counter
    /// Produces the refreshed credential from the call number (1 for the first refresh).
    let renew: @Sendable (_ call: Int, _ stale: TestCredential?) async throws -> TestCredential

    init(
        expiryChecks: Counter = Counter(),
        renew: @escaping @Sendable (_ call: Int, _ stale: TestCredential?) async throws -> TestCredential = { _, _ in
            TestCredential(token: "new")
        }
    ) {
        self.expiryChecks = expiryChecks
        self.renew = renew
    }

    func apply(_ credential: TestCredential, to request: inout NetworkRequest) {
        request.headers["Authorization"] = "Bearer \(credential.token)"
    }

    func refresh(_ credential: TestCredential?) async throws -> TestCredential {
        try await renew(refreshes.increment(), credential)
    }

    func needsRefresh(_ credential: TestCredential) -> Bool {
        expiryChecks.increment()
        return credential.isExpired
    }
}

/// `GET /profiles/{id}`, so that each of many concurrent sends can be told apart on the wire.
struct FetchProfile: Request {
    typealias Response = Void
    let id: Int
    var customProperties = CustomProperties()

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .get, url: baseURL.appendingPathComponent("profiles/\(id)"))
    }
}

/// A refresh failure with an identity, to check that every waiter gets the very same error.
final class RefreshFailure: Error, Sendable {}

/// A one-way barrier a refresh waits behind until the test opens it.
final class Gate: @unchecked Sendable {
    // Safe because `isOpen` is only touched while `lock` is held.
    private let lock = NSLock()
    private var isOpen = false

    func open() {
        lock.withLock { isOpen = true }
    }

    func wait() async throws {
        try await waitUntil { self.lock.withLock { self.isOpen } }
    }
}

extension MockSession {
    /// The `Authorization` header of every recorded ``FetchProfile`` request for `id`, in order.
    func authorizations(profile id: Int) -> [String?] {
        recordedRequests.filter { $0.url?.path.hasSuffix("/profiles/\(id)") == true }
            .map { $0.value(forHTTPHeaderField: "Authorization") }
    }

    /// The `Authorization` header of every recorded request, in order.
    var authorizations: [String?] {
        recordedRequests.map { $0.value(forHTTPHeaderField: "Authorization") }
    }
}

/// A network over `session` that authenticates with `action` and never merges identical GETs, so
/// every send is recorded on its own.
func makeAuthenticatedNetwork(
    session: MockSession,
    action: AuthenticatingAction<CountingAuthenticator>
) -> URLSessionNetwork {
    let network = makeNetwork(session: session) { $0.coalescesIdenticalRequests = false }
    network.add(action: action)
    return network
}
