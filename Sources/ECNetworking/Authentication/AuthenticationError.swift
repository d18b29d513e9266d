import Foundation

/// Why ``AuthenticatingAction`` failed a send on its own account. Errors thrown by
/// ``Authenticator/refresh(_:)`` are not wrapped: they reach the caller unchanged.
public enum AuthenticationError: Error, Sendable, Equatable, LocalizedError {
    /// More refreshes were needed than the action allows within `window`; `count` refreshes were
    /// already made in it. The refresh was not attempted, because a server that rejects every new
    /// credential would otherwise be asked for one after another without end.
    case excessiveRefresh(count: Int, window: Duration)

    /// A sentence for the user or the log.
    public var errorDescription: String? {
        switch self {
        case .excessiveRefresh(let count, let window):
            "The credential was refreshed \(count) times within \(window) and was still rejected; "
                + "no further refresh was attempted."
        }
    }
}
