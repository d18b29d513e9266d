import Foundation

/// Why an event stream could not be read, or why a subscription to one gave up.
///
/// Two ``reconnectionLimitReached(lastError:)`` errors are equal when their last errors read the
/// same (`String(reflecting:)`), since an error in general cannot be compared.
public enum ServerSentEventError: Error, Sendable {
    /// A line was longer than the parser's limit (1 MiB by default); the stream is not read further,
    /// so a server cannot make the client buffer without bound.
    case lineTooLong(limit: Int)
    /// An event's data grew past the parser's limit (1 MiB by default); the stream is not read
    /// further, so a server cannot make the client buffer without bound.
    case eventTooLarge(limit: Int)
    /// The stream ended inside an event, after some of its lines but before the blank line that
    /// ends it: the event is incomplete, so it is not delivered.
    case streamEndedMidEvent
    /// A subscription's connections failed more often in a row than
    /// ``ServerSentEventReconnection/maximumConsecutiveFailures`` allows, so it gave up. A connection
    /// fails when it cannot be made or breaks before the server sent a single line. Carries the last
    /// connection's error, or `nil` when the server closed it cleanly without a line.
    case reconnectionLimitReached(lastError: (any Error)?)
}

extension ServerSentEventError: Hashable {
    /// Whether both are the same case with the same limit, or last errors that read the same.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.lineTooLong(let left), .lineTooLong(let right)), (.eventTooLarge(let left), .eventTooLarge(let right)):
            left == right
        case (.streamEndedMidEvent, .streamEndedMidEvent):
            true
        case (.reconnectionLimitReached(let left), .reconnectionLimitReached(let right)):
            left.map { String(reflecting: $0) } == right.map { String(reflecting: $0) }
        default:
            false
        }
    }

    /// Hashes the case and its limit; the last error, which may not be hashable, is left out.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .lineTooLong(let limit):
            hasher.combine(0)
            hasher.combine(limit)
        case .eventTooLarge(let limit):
            hasher.combine(1)
            hasher.combine(limit)
        case .streamEndedMidEvent:
            hasher.combine(2)
        case .reconnectionLimitReached:
            hasher.combine(3)
        }
    }
}

extension ServerSentEventError: LocalizedError {
    /// A sentence that says what went wrong.
    public var errorDescription: String? {
        switch self {
        case .lineTooLong(let limit):
            "An event stream line was longer than the limit of \(limit) bytes."
        case .eventTooLarge(let limit):
            "An event stream event carried more than the limit of \(limit) bytes of data."
        case .streamEndedMidEvent:
            "The event stream ended in the middle of an event."
        case .reconnectionLimitReached(let lastError?):
            "The event stream could not be reconnected: \(lastError.localizedDescription)"
        case .reconnectionLimitReached(nil):
            "The event stream could not be reconnected: the server closed it without sending anything."
        }
    }
}
