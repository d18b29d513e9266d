import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// When a send through a ``ResponseStore`` may answer from the store instead of the network.
///
/// Whatever the policy, a successful (2xx) network answer replaces the stored one, and a stored
/// entry with an `ETag` or `Last-Modified` makes the network request conditional, so an unchanged
/// resource comes back as an empty `304 Not Modified` instead of its whole body.
public enum StoragePolicy: Sendable, Hashable {
    /// Always asks the network; the store only saves bandwidth through revalidation. A network
    /// failure is thrown.
    case networkOnly
    /// Answers from the store when the stored response is younger than the request's
    /// ``StorableRequest/maximumStorageAge``; otherwise asks the network, and throws its failure.
    case storedIfFresh
    /// Asks the network, and answers from the store, whatever its age, when the network fails
    /// with a transport error or a timeout, or answers with a 5xx status. Other failures (a 4xx, a
    /// decoding failure, cancellation) are thrown, since the stored answer would hide them.
    case networkFallingBackToStored
}

extension StoragePolicy {
    /// Whether `error` means the server could not be reached or could not answer, which is when
    /// ``networkFallingBackToStored`` serves the stored response.
    static func isUnavailability(_ error: any Error) -> Bool {
        switch error {
        case let error as NetworkError:
            switch error {
            case .transport, .timedOut:
                return true
            case .unacceptableStatusCode(let response), .retryLimitReached(_, let response):
                return (500..<600).contains(response.statusCode)
            case .retriesExhausted(_, let lastError):
                return isUnavailability(lastError)
            default:
                return false
            }
        case let error as URLError:
            return error.code != .cancelled
        default:
            return false
        }
    }
}
