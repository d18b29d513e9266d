/// Knows how to put a credential on a request and how to get a new one, so that
/// ``AuthenticatingAction`` can keep requests authenticated without knowing what the credential is
/// (an OAuth token pair, an API key, a signed session).
///
/// ```swift
/// struct TokenAuthenticator: Authenticator {
///     let client: AuthClient
///
///     func apply(_ credential: OAuthToken, to request: inout NetworkRequest) {
///         request.headers["Authorization"] = "Bearer \(credential.accessToken)"
///     }
///
///     func refresh(_ credential: OAuthToken?) async throws -> OAuthToken {
///         guard let credential else { throw LoginRequired() }
///         return try await client.renew(using: credential.refreshToken)
///     }
///
///     func needsRefresh(_ credential: OAuthToken) -> Bool {
///         // Renewing a little early is cheaper than collecting a 401 and sending again.
///         credential.expiresAt < Date().addingTimeInterval(30)
///     }
/// }
///
/// network.add(action: AuthenticatingAction(authenticator: TokenAuthenticator(client: client), credential: saved))
/// ```
///
/// If ``refresh(_:)`` sends its own request through the same network, mark that request with
/// `customProperties[RequiresAuthentication.self] = false`: otherwise it would wait for the very
/// refresh it is part of, so it fails at once with
/// ``AuthenticationError/authenticatedRequestDuringRefresh``. Requests sent from inside
/// `refresh(_:)` leave the admission queue before all others.
public protocol Authenticator: Sendable {
    /// What proves who the caller is; it crosses tasks, so it must be `Sendable`.
    associatedtype Credential: Sendable

    /// Puts `credential` on `request`, typically as an `Authorization` header.
    ///
    /// Called before every attempt, so a retry carries the newest credential.
    func apply(_ credential: Credential, to request: inout NetworkRequest)

    /// Returns a new credential to replace `credential`, which is `nil` when there is none yet
    /// (the first login). A thrown error fails every request waiting for this refresh with that
    /// error, unchanged.
    ///
    /// ``AuthenticatingAction`` calls it once for all requests that need it at the same time.
    func refresh(_ credential: Credential?) async throws -> Credential

    /// Whether `response` means the server rejected the credential `request` carried.
    /// The default is status 401.
    func isAuthenticationFailure(_ response: NetworkResponse, for request: NetworkRequest) -> Bool

    /// Whether `credential` should be replaced before it is used, for example because it expires
    /// in a moment. The default is `false`: a credential is used until the server rejects it.
    func needsRefresh(_ credential: Credential) -> Bool

    /// The ``StoragePartition`` of the user `credential` belongs to (a user id, not the token,
    /// which changes on every refresh), so stored responses are kept apart per user. The default
    /// is `nil`: requests this authenticator signs are then never answered from a
    /// ``ResponseStore`` nor stored.
    func storagePartition(for credential: Credential) -> StoragePartition?
}

extension Authenticator {
    /// Treats 401 Unauthorized as the server rejecting the credential; 403 is left alone, since it
    /// means a valid credential without permission, which a refresh would not fix.
    public func isAuthenticationFailure(_ response: NetworkResponse, for request: NetworkRequest) -> Bool {
        response.statusCode == 401
    }

    /// Never asks for a refresh before use; the server's 401 is what triggers one.
    public func needsRefresh(_ credential: Credential) -> Bool {
        false
    }

    /// Names no partition, which keeps authenticated requests away from any response store.
    public func storagePartition(for credential: Credential) -> StoragePartition? {
        nil
    }
}
