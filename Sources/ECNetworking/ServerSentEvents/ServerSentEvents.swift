import Foundation

/// The events of a `text/event-stream` body, read from its chunks as they arrive; see
/// ``ServerSentEventParser`` for the rules. Made by
/// `serverSentEvents(maximumLineLength:maximumEventSize:)` on any sequence of `Data`, such as a
/// ``ByteStream``.
///
/// It reads as its consumer asks: an event is parsed when `next()` is called, and a chunk is read
/// only once the events of the one before are taken, so the events read ahead are at most what
/// one chunk holds, and a slow consumer slows the reading down to its pace.
///
/// A stream that ends inside an event throws ``ServerSentEventError/streamEndedMidEvent``; a line
/// or an event over its limit throws ``ServerSentEventError/lineTooLong(limit:)`` or
/// ``ServerSentEventError/eventTooLarge(limit:)``; an error of the chunks passes through.
/// Cancelling the task that iterates stops reading the chunks.
public struct ServerSentEvents<Chunks: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Chunks.Element == Data {
    /// One event.
    public typealias Element = ServerSentEvent

    private let chunks: Chunks
    private let parser: ServerSentEventParser

    init(_ chunks: Chunks, parser: ServerSentEventParser) {
        self.chunks = chunks
        self.parser = parser
    }

    /// Starts reading the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), parser: parser)
    }

    /// Reads events in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var chunks: Chunks.AsyncIterator
        /// The parser's state so far: what a subscription reconnects with (the last event ID and
        /// the server's delay), and whether the server sent anything at all.
        private(set) var parser: ServerSentEventParser
        /// What is left of the latest chunk after the event last returned.
        private var unread = Data()
        private var isFinished = false

        init(chunks: Chunks.AsyncIterator, parser: ServerSentEventParser) {
            self.chunks = chunks
            self.parser = parser
        }

        /// The next event, or `nil` once the stream ended cleanly.
        public mutating func next() async throws -> ServerSentEvent? {
            while !isFinished {
                do {
                    if let event = try parser.nextEvent(in: &unread) { return event }
                    if let chunk = try await chunks.next() {
                        unread = chunk
                    } else {
                        isFinished = true
                        try parser.finish()
                    }
                } catch {
                    isFinished = true
                    unread = Data()
                    throw error
                }
            }
            return nil
        }
    }
}

extension AsyncSequence where Self: Sendable, Element == Data {
    /// The chunks read as Server-Sent Events, with lines up to `maximumLineLength` bytes and events
    /// of up to `maximumEventSize` bytes of data.
    ///
    /// Public on purpose: it parses an event stream from any source of bytes (a body another
    /// client received, a file of recorded events in a test), with the same limits as a
    /// subscription.
    public func serverSentEvents(
        maximumLineLength: Int = ServerSentEventParser.defaultMaximumLineLength,
        maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize
    ) -> ServerSentEvents<Self> {
        ServerSentEvents(
            self,
            parser: ServerSentEventParser(maximumLineLength: maximumLineLength, maximumEventSize: maximumEventSize))
    }
}
