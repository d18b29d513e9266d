import Foundation

/// Reads a `text/event-stream` body a chunk at a time and returns each event once it is
/// complete, following the HTML standard's parsing rules.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for try await chunk in body {
///     for event in try parser.parse(chunk) { show(event.data) }
/// }
/// try parser.finish()
/// ```
///
/// Lines end with CR, LF or CRLF, even a CRLF split between two chunks, and an event or a UTF-8
/// character may be split anywhere. A leading byte order mark is skipped, comment lines (`:`) and
/// unknown fields are ignored, and an event without data is not delivered. A line longer than
/// ``maximumLineLength`` throws ``ServerSentEventError/lineTooLong(limit:)``.
public struct ServerSentEventParser: Sendable {
    /// The line limit unless another is given: 1 MiB.
    public static let defaultMaximumLineLength = 1 << 20

    /// The longest line, in bytes, the parser holds before it gives up.
    public let maximumLineLength: Int
    /// The last event ID the stream set, kept across events as the standard says.
    public private(set) var lastEventID: String?
    /// The last reconnection delay a `retry` line set.
    public private(set) var reconnectionDelay: Duration?

    private var line: [UInt8] = []
    /// The last chunk ended with CR, so an LF starting the next one ends no further line.
    private var endedWithCarriageReturn = false
    private var atStart = true
    private var eventType: String?
    private var data: String?
    private var retry: Duration?
    /// Whether a line of the current event has been read; a comment does not count.
    private var isInsideEvent = false

    /// A parser with a line limit of `maximumLineLength` bytes.
    public init(maximumLineLength: Int = ServerSentEventParser.defaultMaximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// Reads `chunk` and returns the events it completes, in order.
    ///
    /// - Throws: ``ServerSentEventError/lineTooLong(limit:)``; the parser must not be used after.
    public mutating func parse(_ chunk: Data) throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var bytes = chunk[...]
        // An empty chunk leaves the CR pending: the LF that completes it may come in the next one.
        if endedWithCarriageReturn, let first = bytes.first {
            endedWithCarriageReturn = false
            if first == UInt8(ascii: "\n") { bytes = bytes.dropFirst() }
        }
        if atStart {
            // The BOM may itself arrive split; wait for three bytes before deciding.
            line.append(contentsOf: bytes)
            guard line.count >= 3 || !Self.byteOrderMark.starts(with: line) else { return [] }
            atStart = false
            if line.starts(with: Self.byteOrderMark) { line.removeFirst(3) }
            bytes = Data(line)[...]
            line = []
        }
        while let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            try append(bytes[..<end])
            if let event = processLine() { events.append(event) }
            line.removeAll(keepingCapacity: true)
            let next = bytes.index(after: end)
            if bytes[end] == UInt8(ascii: "\r") {
                if next == bytes.endIndex {
                    endedWithCarriageReturn = true
                } else if bytes[next] == UInt8(ascii: "\n") {
                    bytes = bytes[bytes.index(after: next)...]
                    continue
                }
            }
            bytes = bytes[next...]
        }
        try append(bytes)
        return events
    }

    /// Says the stream ended.
    ///
    /// - Throws: ``ServerSentEventError/streamEndedMidEvent`` when it ended inside an event:
    ///   the standard drops such an event, and the caller learns the stream was cut.
    public mutating func finish() throws {
        defer { resetEvent() }
        // A last line without its line break counts, unless it is a comment or the start of a BOM.
        guard line.isEmpty || line[0] == UInt8(ascii: ":") || (atStart && Self.byteOrderMark.starts(with: line))
        else {
            throw ServerSentEventError.streamEndedMidEvent
        }
        if isInsideEvent { throw ServerSentEventError.streamEndedMidEvent }
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private mutating func append(_ bytes: Data.SubSequence) throws {
        guard line.count + bytes.count <= maximumLineLength else {
            throw ServerSentEventError.lineTooLong(limit: maximumLineLength)
        }
        line.append(contentsOf: bytes)
    }

    /// Applies one complete line; returns the event a blank line completes.
    private mutating func processLine() -> ServerSentEvent? {
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        isInsideEvent = true
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let field = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var valueStart = colon.map { line.index(after: $0) } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = String(decoding: line[valueStart...], as: UTF8.self)
        switch field {
        case "event":
            eventType = value
        case "data":
            data = data.map { $0 + "\n" + value } ?? value
        case "id":
            if !value.contains("\0") { lastEventID = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let milliseconds = Int64(value)
            {
                retry = .milliseconds(milliseconds)
                reconnectionDelay = retry
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer { resetEvent() }
        guard let data else { return nil }
        return ServerSentEvent(
            id: lastEventID, event: eventType.flatMap { $0.isEmpty ? nil : $0 } ?? "message", data: data,
            retry: retry)
    }

    private mutating func resetEvent() {
        eventType = nil
        data = nil
        retry = nil
        isInsideEvent = false
    }
}
