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
    // Safe because `openState` and `waiters` are only touched while `lock` is held.
    private let lock = NSLock()
    private var openState = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        let waiting = lock.withLock {
            openState = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Whether ``open()`` has been called.
    var isOpen: Bool {
        lock.withLock { openState }
    }

    func wait() async throws {
        try await waitUntil { self.isOpen }
    }

    /// Waits until the gate opens, even in a cancelled task, as a login that ignores cancellation
    /// would; suspended rather than polling, so it holds no thread meanwhile.
    func waitIgnoringCancellation() async {
        await withCheckedContinuation { continuation in
            let isOpen = lock.withLock {
                if !openState { waiters.append(continuation) }
                return openState
            }
            if isOpen { continuation.resume() }
        }
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

/// A clock that stands still until the test advances it, so a test of a time window need not wait.
final class ManualClock: Clock, @unchecked Sendable {
    // Safe because `current` is only touched while `lock` is held.
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)

    var now: Instant {
        lock.withLock { current }
    }

    var minimumResolution: Duration { .zero }

    /// Moves the time forward by `duration`.
    func advance(by duration: Duration) {
        lock.withLock { current = current.advanced(by: duration) }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline { try await Task.sleep(for: .milliseconds(1)) }
    }
}
