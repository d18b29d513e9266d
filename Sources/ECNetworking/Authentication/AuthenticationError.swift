import Foundation

/// Why ``AuthenticatingAction`` failed a send on its own account. Errors thrown by
/// ``Authenticator/refresh(_:)`` are not wrapped: they reach the caller unchanged.
public enum AuthenticationError: Error, Sendable, Equatable, LocalizedError {
    /// `count` refreshed credentials turned out unusable within `window` (the server rejected
    /// them, or ``Authenticator/needsRefresh(_:)`` found them due at once), so no further refresh
    /// is attempted until the window has passed: a server that rejects every new credential
    /// would otherwise be asked for one after another without end. Refreshes that failed, for
    /// example offline, do not count.
    case excessiveRefresh(count: Int, window: Duration)
    /// A request that requires authentication was sent from inside ``Authenticator/refresh(_:)``,
    /// where it would wait for the very refresh it is part of. Mark it
    /// `customProperties[RequiresAuthentication.self] = false`.
    case authenticatedRequestDuringRefresh
    /// The refresh did not finish within the action's `refreshTimeout`; it was cancelled, every
    /// request waiting for it failed with this error, and the next request starts a new one.
    case refreshTimedOut(after: Duration)
    /// The credential was reset (a sign-out or a switch of user) while this send waited for a
    /// refresh or after it had been sent with the previous user's credential. It is not sent
    /// again with the new user's credential.
    case credentialReset

    /// A sentence for the user or the log.
    public var errorDescription: String? {
        switch self {
        case .excessiveRefresh(let count, let window):
            "\(count) refreshed credentials were unusable (rejected by the server or already due) within \(window); "
                + "no further refresh is attempted until that time has passed."
        case .authenticatedRequestDuringRefresh:
            "A request that requires authentication was sent from inside Authenticator.refresh, where it would "
                + "wait for that very refresh. Mark it customProperties[RequiresAuthentication.self] = false."
        case .refreshTimedOut(let duration):
            "The credential refresh did not finish within \(duration); it was cancelled, and the next request "
                + "starts a new one."
        case .credentialReset:
            "The credential was reset (sign-out or a switch of user), so this request, made for the previous user, "
                + "was not sent with the new one."
        }
    }
}
