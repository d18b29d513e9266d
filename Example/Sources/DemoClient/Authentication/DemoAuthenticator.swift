import DemoServer
import ECNetworking

/// Logs in to the demo API for `AuthenticatingAction`: puts the bearer token on requests and,
/// when there is none yet or the server rejects it, sends ``LoginRequest`` for a new one.
///
/// `AuthenticatingAction` calls ``refresh(_:)`` once for every request that needs a token at the
/// same moment, so ten concurrent first requests cause one login.
///
/// The server's `expiresIn` is not used to refresh early: it is rounded down to whole seconds (a
/// 300 ms token reads as 0), and the server's `401` is the authority on expiry anyway; the action
/// answers it with one refresh and one retry.
public struct DemoAuthenticator: Authenticator {
    /// The network the login goes through. Weak, because that network holds the action that holds
    /// this authenticator: a strong reference would keep both alive for ever.
    private weak let network: (any Network)?
    private let credentials: Credentials
    private let refreshes: RefreshCounter

    /// Creates an authenticator that logs in through `network` with `credentials`, counting each
    /// login in `refreshes`.
    public init(network: any Network, credentials: Credentials, refreshes: RefreshCounter) {
        self.network = network
        self.credentials = credentials
        self.refreshes = refreshes
    }

    /// Sets `Authorization: Bearer <token>`.
    public func apply(_ credential: Token, to request: inout NetworkRequest) {
        request.headers["Authorization"] = "Bearer \(credential.token)"
    }

    /// Logs in again; the demo API has no refresh token, so a new login is the renewal.
    ///
    /// - Throws: ``DemoClientError/networkReleased`` when the network is gone, or the login's own
    ///   error (a `401` for wrong credentials), which reaches every request waiting for it.
    public func refresh(_ credential: Token?) async throws -> Token {
        guard let network else { throw DemoClientError.networkReleased }
        await refreshes.increment()
        return try await network.send(LoginRequest(credentials: credentials))
    }
}
