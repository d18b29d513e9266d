import Foundation

/// The lines of a streamed body, as text, read as the chunks arrive: what NDJSON, JSON Lines and
/// most token streams are made of.
///
/// A line ends at LF or CRLF, which are not part of it; a last line without an ending is a line
/// too. Bytes that are not UTF-8 become U+FFFD. A line longer than ``maximumLength`` bytes throws
/// ``ResponseLinesError/lineTooLong(limit:)`` instead of growing memory without bound; an error of
/// the chunks passes through.
public struct ResponseLines<Chunks: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Chunks.Element == Data {
    /// One line.
    public typealias Element = String

    /// The default longest line, in bytes: 1 MiB.
    public static var defaultMaximumLength: Int { 1 << 20 }

    private let chunks: Chunks
    /// The longest line accepted, in bytes.
    public let maximumLength: Int
    /// Asked before each line: an error ends the read even with lines still buffered.
    private let interruption: (@Sendable () -> (any Error)?)?

    /// The lines of `chunks`, each at most `maximumLength` bytes.
    public init(_ chunks: Chunks, maximumLength: Int = Self.defaultMaximumLength) {
        self.init(chunks, maximumLength: maximumLength, interruption: nil)
    }

    /// The lines of `chunks`, ended by the error `interruption` returns before any line, one
    /// buffered from a chunk already read included: a stream cancelled between two lines of one
    /// chunk ends there.
    init(_ chunks: Chunks, maximumLength: Int, interruption: (@Sendable () -> (any Error)?)?) {
        self.chunks = chunks
        self.maximumLength = maximumLength
        self.interruption = interruption
    }

    /// Starts reading the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), maximumLength: maximumLength, interruption: interruption)
    }

    /// Reads lines in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var chunks: Chunks.AsyncIterator
        private let maximumLength: Int
        /// The bytes received and not yet returned as lines start at `lineStart`.
        private var buffer: [UInt8] = []
        private var lineStart = 0
        /// Where to look for the next line ending, so a long line is not searched again.
        private var searchStart = 0
        private var isFinished = false
        private let interruption: (@Sendable () -> (any Error)?)?

        init(chunks: Chunks.AsyncIterator, maximumLength: Int, interruption: (@Sendable () -> (any Error)?)?) {
            self.chunks = chunks
            self.maximumLength = maximumLength
            self.interruption = interruption
        }

        /// The next line, or `nil` at the end of the body.
        public mutating func next() async throws -> String? {
            if let error = interruption?() { throw error }
            while true {
                if let newline = buffer[searchStart...].firstIndex(of: 0x0A) {
                    var end = newline
                    if end > lineStart, buffer[end - 1] == 0x0D { end -= 1 }
                    return try takeLine(upTo: end, resumingAt: newline + 1)
                }
                searchStart = buffer.count
                // One byte of room for a CR that a CRLF split across chunks leaves behind.
                guard buffer.count - lineStart <= maximumLength + 1 else {
                    throw ResponseLinesError.lineTooLong(limit: maximumLength)
                }
                guard !isFinished, let chunk = try await chunks.next() else {
                    isFinished = true
                    guard lineStart < buffer.count else { return nil }
                    let end = buffer.last == 0x0D ? buffer.count - 1 : buffer.count
                    return try takeLine(upTo: end, resumingAt: buffer.count)
                }
                // Lines already returned are dropped only now, once per chunk rather than per line.
                if lineStart > 0 {
                    buffer.removeFirst(lineStart)
                    searchStart -= lineStart
                    lineStart = 0
                }
                buffer.append(contentsOf: chunk)
            }
        }

        private mutating func takeLine(upTo end: Int, resumingAt next: Int) throws -> String {
            guard end - lineStart <= maximumLength else { throw ResponseLinesError.lineTooLong(limit: maximumLength) }
            let line = String(decoding: buffer[lineStart..<end], as: UTF8.self)
            lineStart = next
            searchStart = next
            return line
        }
    }
}

/// Why the lines of a streamed body could not be read.
public enum ResponseLinesError: Error, Hashable, Sendable, LocalizedError {
    /// A line was longer than the limit, in bytes.
    case lineTooLong(limit: Int)

    /// A description of the error.
    public var errorDescription: String? {
        switch self {
        case .lineTooLong(let limit): "A line of the response was longer than the limit of \(limit) bytes."
        }
    }
}
