/// Holds the current credential and makes sure that, however many requests find it missing, expired
/// or rejected at the same moment, only one refresh runs and all of them use its result.
///
/// Each credential has a generation, raised by every successful refresh. A request remembers the
/// generation it was sent with; a rejection of an older generation than the current one is stale
/// news and needs no refresh of its own.
actor CredentialStore<A: Authenticator> {
    /// A credential together with its generation.
    struct Issued: Sendable {
        let credential: A.Credential
        let generation: Int
    }

    private let authenticator: A
    private let maximumRefreshes: Int
    private let window: Duration
    private let clock = ContinuousClock()

    private(set) var credential: A.Credential?
    private var generation = 0
    /// The refresh everyone waits for; `nil` when none is running.
    private var refreshTask: Task<Issued, any Error>?
    /// When recent refreshes started, oldest first, to stop a refresh loop against a server that
    /// rejects every new credential.
    private var refreshStarts: [ContinuousClock.Instant] = []

    init(authenticator: A, credential: A.Credential?, maximumRefreshes: Int, window: Duration) {
        self.authenticator = authenticator
        self.credential = credential
        self.maximumRefreshes = maximumRefreshes
        self.window = window
    }

    /// The credential to send now: the one held, unless it is missing, needs a refresh, or is being
    /// replaced already, in which case the (shared) refresh's result.
    ///
    /// ``Authenticator/needsRefresh(_:)`` is asked once per call, even while a refresh runs, so how
    /// often it is asked does not depend on timing.
    func usableCredential() async throws -> Issued {
        let isDue = credential.map(authenticator.needsRefresh) ?? true
        if let refreshTask { return try await RefreshWaiter.value(of: refreshTask) }
        if let credential, !isDue { return Issued(credential: credential, generation: generation) }
        return try await RefreshWaiter.value(of: startRefresh())
    }

    /// Makes sure the credential of `rejectedGeneration` is replaced: joins a refresh that is
    /// running, returns at once when a newer credential exists already, or starts a refresh.
    func replaceCredential(rejectedGeneration: Int) async throws {
        if let refreshTask {
            _ = try await RefreshWaiter.value(of: refreshTask)
        } else if generation <= rejectedGeneration {
            _ = try await RefreshWaiter.value(of: startRefresh())
        }
    }

    /// Starts the one refresh that everyone who arrives before it ends will share.
    ///
    /// - Throws: ``AuthenticationError/excessiveRefresh(count:window:)`` when `maximumRefreshes`
    ///   already started within `window`; the authenticator is not asked.
    private func startRefresh() throws -> Task<Issued, any Error> {
        let now = clock.now
        refreshStarts.removeAll { now - $0 >= window }
        guard refreshStarts.count < maximumRefreshes else {
            throw AuthenticationError.excessiveRefresh(count: refreshStarts.count, window: window)
        }
        refreshStarts.append(now)
        let stale = credential
        // Unstructured, so that cancelling the request that happened to start it does not cancel it
        // for the others. It runs on this actor, so the result is stored before any waiter resumes.
        let task = Task { [authenticator] in
            defer { refreshTask = nil }
            let fresh = try await authenticator.refresh(stale)
            credential = fresh
            generation += 1
            return Issued(credential: fresh, generation: generation)
        }
        refreshTask = task
        return task
    }
}
