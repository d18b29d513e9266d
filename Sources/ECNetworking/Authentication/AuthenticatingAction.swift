/// Authenticates every request with an ``Authenticator``'s credential and renews the credential
/// when it is missing, expires, or is rejected, with one refresh for all requests that need it at
/// the same time.
///
/// ```swift
/// let auth = AuthenticatingAction(authenticator: TokenAuthenticator(client: client), credential: savedToken)
/// network.add(action: auth)
///
/// let users = try await network.send(ListUsersRequest())  // carries the token; refreshed on a 401
/// try await keychain.save(await auth.credential)           // keep what the last refresh produced
/// ```
///
/// What it does for each request that does not opt out with ``RequiresAuthentication``:
/// - Before every attempt it applies the current credential. When there is none yet, or
///   ``Authenticator/needsRefresh(_:)`` says it is due, or a refresh is already running, the
///   request waits for that refresh first.
/// - When ``Authenticator/isAuthenticationFailure(_:for:)`` says the server rejected the credential,
///   it asks for a retry: at once if someone else has renewed the credential since, otherwise after
///   a refresh. A send is retried this way once; if the renewed credential is rejected too, the
///   rejection reaches the caller as ``NetworkError/unacceptableStatusCode(_:)``.
/// - A failed refresh fails every request waiting for it with the authenticator's error,
///   unchanged; the next request tries again. More than `maximumRefreshes` refreshes within the
///   window fail with ``AuthenticationError/excessiveRefresh(count:window:)`` instead.
/// - Cancelling a request that waits for a refresh ends that request only; the refresh goes on.
public final class AuthenticatingAction<A: Authenticator>: RequestWillBeginAction, ResponseCompletedAction {
    private let authenticator: A
    private let store: CredentialStore<A>

    /// Creates an action that authenticates with `authenticator`.
    ///
    /// - Parameters:
    ///   - authenticator: Applies and refreshes the credential.
    ///   - credential: A credential to start with, such as one saved from an earlier session;
    ///     `nil` makes the first request refresh (log in) first.
    ///   - maximumRefreshes: How many refreshes may start within `window`; one more fails with
    ///     ``AuthenticationError/excessiveRefresh(count:window:)``, so that a server rejecting every
    ///     credential cannot drive an endless refresh loop.
    ///   - window: The span of time `maximumRefreshes` applies to.
    public init(
        authenticator: A,
        credential: A.Credential? = nil,
        maximumRefreshes: Int = 3,
        within window: Duration = .seconds(30)
    ) {
        self.authenticator = authenticator
        self.store = CredentialStore(
            authenticator: authenticator, credential: credential, maximumRefreshes: maximumRefreshes, window: window)
    }

    /// The current credential: the initial one or the latest refresh's, for example to save it.
    public var credential: A.Credential? {
        get async { await store.credential }
    }

    /// Applies the current credential, refreshing it first when it is missing or due, and notes on
    /// the request which credential it carries.
    public func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        guard request.customProperties.requiresAuthentication else { return request }
        let issued = try await store.usableCredential()
        var request = request
        authenticator.apply(issued.credential, to: &request)
        // The properties still hold what the previous attempt of this send carried, if any.
        if let previous = request.customProperties[AppliedCredentialGeneration.self], previous < issued.generation {
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
            request.customProperties[CredentialRenewalCount.self] == 0,
            authenticator.isAuthenticationFailure(response, for: request)
        else { return .proceed(response) }
        try await store.replaceCredential(rejectedGeneration: generation)
        return .retry
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
