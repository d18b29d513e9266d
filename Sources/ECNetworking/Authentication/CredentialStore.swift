/// Holds the current credential and makes sure that, however many requests find it missing, expired
/// or rejected at the same moment, only one refresh runs and all of them use its result.
///
/// Each credential has a generation, raised by every refresh and every reset. A request remembers
/// the generation it was sent with; a rejection of an older generation than the current one is
/// stale news and needs no refresh of its own. A reset (sign-out, switch of user) also starts a new
/// identity: a send that carried a credential of an earlier identity is never given the new one.
actor CredentialStore<A: Authenticator> {
    /// A credential together with its generation.
    struct Issued: Sendable {
        let credential: A.Credential
        let generation: Int
    }

    private let authenticator: A
    private let refreshTimeout: Duration?
    private var limiter: RefreshLimiter

    private(set) var credential: A.Credential?
    private var generation = 0
    /// The first generation of the current identity; older ones belong to a user who is gone.
    private var identityStart = 0
    /// The generation the latest refresh produced, the only kind the limiter counts.
    private var refreshedGeneration: Int?
    /// The refreshed generation already counted as unusable, so that the many 401s of one
    /// rejected credential count once.
    private var countedGeneration: Int?
    /// The refresh everyone waits for; `nil`, or ended, when none is running.
    private var flight: RefreshFlight<Issued>?

    init(authenticator: A, credential: A.Credential?, refreshTimeout: Duration?, limiter: RefreshLimiter) {
        self.authenticator = authenticator
        self.credential = credential
        self.refreshTimeout = refreshTimeout
        self.limiter = limiter
    }

    /// The credential to send now: the one held, unless it is missing, needs a refresh, or is being
    /// replaced already, in which case the (shared) refresh's result.
    ///
    /// ``Authenticator/needsRefresh(_:)`` is asked once per call, even while a refresh runs, so how
    /// often it is asked does not depend on timing.
    ///
    /// - Parameter previousGeneration: The generation the send's previous attempt carried, if any.
    /// - Throws: ``AuthenticationError/credentialReset`` when that generation belongs to an
    ///   earlier identity; otherwise what the refresh throws.
    func usableCredential(previousGeneration: Int?) async throws -> Issued {
        if let previousGeneration, previousGeneration < identityStart { throw AuthenticationError.credentialReset }
        let isDue = credential.map(authenticator.needsRefresh) ?? true
        if let flight, flight.isRunning { return try await flight.value() }
        if let credential, !isDue { return Issued(credential: credential, generation: generation) }
        if credential != nil { noteUnusable(generation) }
        return try await startRefresh().value()
    }

    /// Makes sure the credential of `rejectedGeneration` is replaced: joins a refresh that is
    /// running, returns at once when a newer credential exists already, or starts a refresh.
    ///
    /// - Throws: ``AuthenticationError/credentialReset`` when the rejected credential belongs to
    ///   an earlier identity; otherwise what the refresh throws.
    func replaceCredential(rejectedGeneration: Int) async throws {
        guard rejectedGeneration >= identityStart else { throw AuthenticationError.credentialReset }
        if let flight, flight.isRunning {
            _ = try await flight.value()
        } else if generation <= rejectedGeneration {
            noteUnusable(rejectedGeneration)
            _ = try await startRefresh().value()
        }
    }

    /// Notes that the server rejected `generation` where no refresh follows (the send already had
    /// its one retry), so that a server rejecting every new credential is still noticed.
    func noteRejection(of generation: Int) {
        noteUnusable(generation)
    }

    /// Replaces the credential for a new identity: a running refresh is abandoned (its waiters
    /// fail with ``AuthenticationError/credentialReset`` and its result is never installed), the
    /// refresh limit starts afresh, and every credential issued before is stale.
    /// Installs `credential` for a new identity and returns the one it replaces.
    @discardableResult
    func reset(to credential: A.Credential?) -> A.Credential? {
        let replaced = self.credential
        flight?.abandon(with: AuthenticationError.credentialReset)
        flight = nil
        self.credential = credential
        generation += 1
        identityStart = generation
        refreshedGeneration = nil
        countedGeneration = nil
        limiter.reset()
        return replaced
    }

    private func noteUnusable(_ generation: Int) {
        guard generation == refreshedGeneration, generation != countedGeneration else { return }
        countedGeneration = generation
        limiter.noteUnusableCredential()
    }

    /// Starts the one refresh that everyone who arrives before it ends will share.
    ///
    /// - Throws: ``AuthenticationError/excessiveRefresh(count:window:)`` when too many refreshed
    ///   credentials turned out unusable lately; the authenticator is not asked.
    private func startRefresh() throws -> RefreshFlight<Issued> {
        try limiter.checkRefreshAllowed()
        ObservedSend.refreshStarted()
        let flight = RefreshFlight<Issued>(timeout: refreshTimeout)
        let stale = credential
        let markers = RefreshMarker.refreshingStores.union([ObjectIdentifier(self)])
        // Unstructured, and apart from the send that started it, so that cancelling that request
        // (its task, or `cancelAll`) does not cancel the refresh for the others. It runs on this
        // actor, so the result is stored before any waiter resumes.
        let task = Task { [authenticator] in
            let result: Result<A.Credential, any Error>
            do {
                result = .success(
                    try await SendCancellation.$current.withValue(nil) {
                        try await RefreshMarker.$refreshingStores.withValue(markers) {
                            try await authenticator.refresh(stale)
                        }
                    })
            } catch {
                result = .failure(error)
            }
            complete(flight, with: result)
        }
        flight.start(task)
        self.flight = flight
        return flight
    }

    /// Installs a refresh's credential, unless its flight was abandoned meanwhile (reset, time
    /// limit): then its result is dropped, so an abandoned refresh never overwrites a newer state.
    private func complete(_ finished: RefreshFlight<Issued>, with result: Result<A.Credential, any Error>) {
        guard flight === finished else {
            finished.abandon(with: AuthenticationError.credentialReset)
            return
        }
        flight = nil
        switch result {
        case .success(let fresh):
            guard finished.finish(with: .success(Issued(credential: fresh, generation: generation + 1))) else { return }
            credential = fresh
            generation += 1
            refreshedGeneration = generation
        case .failure(let error):
            finished.finish(with: .failure(error))
        }
    }
}
