import Foundation

/// Authenticates every request to your server with an ``Authenticator``'s credential and renews
/// the credential when it is missing, expires, or is rejected, with one refresh for all requests
/// that need it at the same time.
///
/// ```swift
/// let auth = AuthenticatingAction(authenticator: TokenAuthenticator(client: client), credential: savedToken)
/// network.add(action: auth)
///
/// let users = try await network.send(ListUsersRequest())  // carries the token; refreshed on a 401
/// try await keychain.save(await auth.credential)           // keep what the last refresh produced
/// await auth.signOut()                                     // the next request logs in afresh
/// ```
///
/// What it does for each request that does not opt out with ``RequiresAuthentication``:
/// - Only a request to the network's base URL origin (scheme, host and port) or to one of
///   `additionalOrigins` is authenticated. Any other request, such as an absolute URL to a CDN,
///   goes out untouched: no credential, no refresh on its 401.
/// - Before every attempt it applies the current credential. When there is none yet, or
///   ``Authenticator/needsRefresh(_:)`` says it is due, or a refresh is already running, the
///   request waits for that refresh first.
/// - When ``Authenticator/isAuthenticationFailure(_:for:)`` says the server rejected the credential,
///   it asks for a retry: at once if someone else has renewed the credential since, otherwise after
///   a refresh. A send is retried this way once; if the renewed credential is rejected too, the
///   rejection reaches the caller as ``NetworkError/unacceptableStatusCode(_:)``.
/// - A failed refresh fails every request waiting for it with the authenticator's error,
///   unchanged; the next request tries again. When `maximumRefreshes` refreshed credentials were
///   rejected within the window, refreshes stop for the rest of it and sends that need one fail
///   with ``AuthenticationError/excessiveRefresh(count:window:)``.
/// - Cancelling a request that waits for a refresh ends that request only; the refresh goes on.
/// - A request sent from inside ``Authenticator/refresh(_:)`` leaves the network's admission queue
///   before every other, because every request waiting for the credential waits for it too. If it
///   requires authentication itself, it fails at once with
///   ``AuthenticationError/authenticatedRequestDuringRefresh`` instead of waiting for ever.
public final class AuthenticatingAction<A: Authenticator>: RequestWillBeginAction, ResponseCompletedAction {
    private let authenticator: A
    private let store: CredentialStore<A>
    private let additionalOrigins: Set<Origin>

    /// Creates an action that authenticates with `authenticator`.
    ///
    /// - Parameters:
    ///   - authenticator: Applies and refreshes the credential.
    ///   - credential: A credential to start with, such as one saved from an earlier session;
    ///     `nil` makes the first request refresh (log in) first.
    ///   - maximumRefreshes: How many refreshed credentials may turn out unusable (rejected by the
    ///     server, or due at once) within `window` before refreshes stop for the rest of it with
    ///     ``AuthenticationError/excessiveRefresh(count:window:)``, so that a server rejecting every
    ///     credential cannot drive an endless refresh loop. Failed refreshes do not count.
    ///   - window: The span of time `maximumRefreshes` applies to.
    ///   - additionalOrigins: Origins besides the network's base URL's that get the credential,
    ///     such as `https://upload.example.com` (only their scheme, host and port count).
    ///   - refreshTimeout: How long a refresh may take; past it the refresh is cancelled, every
    ///     request waiting for it fails with ``AuthenticationError/refreshTimedOut(after:)``, its
    ///     result is never used, and the next request starts a new refresh. `nil`, the default,
    ///     waits as long as the refresh takes.
    ///   - clock: The clock `window` is measured with; tests can pass one they advance themselves.
    public init<C: Clock>(
        authenticator: A,
        credential: A.Credential? = nil,
        maximumRefreshes: Int = 3,
        within window: Duration = .seconds(30),
        additionalOrigins: [URL] = [],
        refreshTimeout: Duration? = nil,
        clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        self.authenticator = authenticator
        self.additionalOrigins = Set(additionalOrigins.compactMap(Origin.init))
        self.store = CredentialStore(
            authenticator: authenticator,
            credential: credential,
            refreshTimeout: refreshTimeout,
            limiter: RefreshLimiter(maximum: maximumRefreshes, window: window, clock: clock))
    }

    /// The current credential: the initial one, the latest refresh's, or the one reset to; for
    /// example to save it.
    public var credential: A.Credential? {
        get async { await store.credential }
    }

    /// Replaces the credential for a new identity, such as after switching user; `nil` makes the
    /// next request log in afresh.
    ///
    /// A refresh that is running is cancelled and its result is never installed; the requests
    /// waiting for it fail with ``AuthenticationError/credentialReset``, as does a send that
    /// carried the previous credential when it would be retried. No request made for the previous
    /// user is sent with the new credential. The refresh limit starts afresh.
    ///
    /// - Parameters:
    ///   - credential: The credential for the new identity, or `nil` to log in afresh.
    ///   - stores: Stores to remove the previous user's responses from: the
    ///     ``StoragePartition`` that ``Authenticator/storagePartition(for:)`` names for the replaced
    ///     credential, and no other. Pass them whenever the identity changes, so that nothing the
    ///     previous user fetched stays on the device.
    public func resetCredential(
        to credential: A.Credential?,
        removingStoredResponsesFrom stores: [any ResponseStore] = []
    ) async {
        let replaced = await store.reset(to: credential)
        guard let replaced, let partition = authenticator.storagePartition(for: replaced) else { return }
        for store in stores {
            await store.removeAll(in: partition)
        }
    }

    /// Signs out: forgets the credential, so that the next request logs in afresh, and removes
    /// the signed-out user's responses from `stores`. The same as ``resetCredential(to:removingStoredResponsesFrom:)``
    /// with `nil`.
    ///
    /// ```swift
    /// await auth.signOut(removingStoredResponsesFrom: [disk])
    /// ```
    public func signOut(removingStoredResponsesFrom stores: [any ResponseStore] = []) async {
        await resetCredential(to: nil, removingStoredResponsesFrom: stores)
    }

    /// Applies the current credential, refreshing it first when it is missing or due, and notes on
    /// the request which credential it carries.
    ///
    /// - Throws: ``AuthenticationError/authenticatedRequestDuringRefresh`` for a request sent
    ///   from inside this action's own refresh; otherwise what waiting for the credential throws.
    public func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        guard request.customProperties.requiresAuthentication, authenticates(request) else { return request }
        guard !RefreshMarker.refreshingStores.contains(ObjectIdentifier(store)) else {
            throw AuthenticationError.authenticatedRequestDuringRefresh
        }
        // The properties still hold what the previous attempt of this send carried, if any.
        let previous = request.customProperties[AppliedCredentialGeneration.self]
        let issued = try await store.usableCredential(previousGeneration: previous)
        var request = request
        authenticator.apply(issued.credential, to: &request)
        if let previous, previous < issued.generation {
            request.customProperties[CredentialRenewalCount.self] += 1
        }
        request.customProperties[AppliedCredentialGeneration.self] = issued.generation
        if let partition = authenticator.storagePartition(for: issued.credential) {
            request.customProperties[StoragePartition.self] = partition
        }
        return request
    }

    /// Asks for a retry with a renewed credential when the server rejected the one the request
    /// carried, unless this send already had a renewed credential rejected.
    public func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        guard request.customProperties.requiresAuthentication,
            let generation = request.customProperties[AppliedCredentialGeneration.self],
            authenticator.isAuthenticationFailure(response, for: request)
        else { return .proceed(response) }
        guard request.customProperties[CredentialRenewalCount.self] == 0 else {
            await store.noteRejection(of: generation)
            return .proceed(response)
        }
        try await store.replaceCredential(rejectedGeneration: generation)
        return .retry
    }

    /// Whether `request` goes to an origin that may see the credential: the base URL's of the
    /// network sending it, or one of `additionalOrigins`.
    private func authenticates(_ request: NetworkRequest) -> Bool {
        guard let origin = Origin(request.url) else { return false }
        return origin == Origin(request.customProperties[NetworkBaseURL.self]) || additionalOrigins.contains(origin)
    }
}

extension AuthenticatingAction: StoragePartitioningAction {
    /// Tells a send through a ``ResponseStore``, before it reads the store, that a request needing
    /// authentication will carry the current credential, in the partition the authenticator names.
    public func storageIdentity(for request: NetworkRequest) async -> StorageIdentity {
        guard request.customProperties.requiresAuthentication else { return .unchanged }
        return .credential(partition: await credential.flatMap { authenticator.storagePartition(for: $0) })
    }
}
