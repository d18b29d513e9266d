import Foundation

/// Why the demo client failed on its own account, rather than the server or the library.
public enum DemoClientError: Error, Sendable, Equatable, LocalizedError {
    /// A login was needed but the network it goes through was already released.
    case networkReleased

    /// A sentence for the user or the log.
    public var errorDescription: String? {
        switch self {
        case .networkReleased:
            "The network was released before the login it needed could be sent."
        }
    }
}
