import Foundation

/// Why an event stream could not be read.
public enum ServerSentEventError: Error, Hashable, Sendable {
    /// A line was longer than the parser's limit (1 MiB by default); the stream is not read further,
    /// so a server cannot make the client buffer without bound.
    case lineTooLong(limit: Int)
    /// The stream ended inside an event, after some of its lines but before the blank line that
    /// ends it: the event is incomplete, so it is not delivered.
    case streamEndedMidEvent
}

extension ServerSentEventError: LocalizedError {
    /// A sentence that says what went wrong.
    public var errorDescription: String? {
        switch self {
        case .lineTooLong(let limit):
            "An event stream line was longer than the limit of \(limit) bytes."
        case .streamEndedMidEvent:
            "The event stream ended in the middle of an event."
        }
    }
}
