import Foundation

/// The events of a `text/event-stream` body, read from its chunks as they arrive; see
/// ``ServerSentEventParser`` for the rules. Made by `serverSentEvents(maximumLineLength:)` on any
/// sequence of `Data`, such as a ``ByteStream``.
///
/// A stream that ends inside an event throws ``ServerSentEventError/streamEndedMidEvent``; a line
/// over the limit throws ``ServerSentEventError/lineTooLong(limit:)``; an error of the chunks
/// passes through. Cancelling the task that iterates stops reading the chunks.
public struct ServerSentEvents<Chunks: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Chunks.Element == Data {
    /// One event.
    public typealias Element = ServerSentEvent

    private let chunks: Chunks
    private let maximumLineLength: Int

    init(_ chunks: Chunks, maximumLineLength: Int) {
        self.chunks = chunks
        self.maximumLineLength = maximumLineLength
    }

    /// Starts reading the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), maximumLineLength: maximumLineLength)
    }

    /// Reads events in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var chunks: Chunks.AsyncIterator
        private var parser: ServerSentEventParser
        private var pending: [ServerSentEvent] = []
        private var isFinished = false

        init(chunks: Chunks.AsyncIterator, maximumLineLength: Int) {
            self.chunks = chunks
            self.parser = ServerSentEventParser(maximumLineLength: maximumLineLength)
        }

        /// The next event, or `nil` once the stream ended cleanly.
        public mutating func next() async throws -> ServerSentEvent? {
            while pending.isEmpty {
                guard !isFinished else { return nil }
                do {
                    if let chunk = try await chunks.next() {
                        pending = try parser.parse(chunk).reversed()
                    } else {
                        isFinished = true
                        try parser.finish()
                    }
                } catch {
                    isFinished = true
                    throw error
                }
            }
            return pending.removeLast()
        }
    }
}

extension AsyncSequence where Self: Sendable, Element == Data {
    /// The chunks read as Server-Sent Events, with lines up to `maximumLineLength` bytes.
    public func serverSentEvents(
        maximumLineLength: Int = ServerSentEventParser.defaultMaximumLineLength
    ) -> ServerSentEvents<Self> {
        ServerSentEvents(self, maximumLineLength: maximumLineLength)
    }
}
