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
/// unknown fields are ignored, and an event without data is not delivered. As the standard says, a
/// `retry` line sets ``reconnectionDelay`` as soon as it is read, event or not, and an `id` line
/// sets ``lastEventID`` when its event ends (at the blank line), even an event without data, so an
/// ID in an event cut short is not taken.
///
/// Memory is bounded: a line longer than ``maximumLineLength`` throws
/// ``ServerSentEventError/lineTooLong(limit:)``, and an event whose data grows past
/// ``maximumEventSize`` throws ``ServerSentEventError/eventTooLarge(limit:)``. Each byte is read
/// once and an event's data lines are appended in place, so parsing takes time in proportion to
/// the bytes.
public struct ServerSentEventParser: Sendable {
    /// The line limit unless another is given: 1 MiB.
    public static let defaultMaximumLineLength = 1 << 20
    /// The event size limit unless another is given: 1 MiB.
    public static let defaultMaximumEventSize = 1 << 20

    /// The longest line, in bytes, the parser holds before it gives up.
    public let maximumLineLength: Int
    /// The most data, in bytes, one event may carry (its `data` lines and the line breaks between
    /// them) before the parser gives up.
    public let maximumEventSize: Int
    /// The last event ID the stream set, kept across events as the standard says: the `id` of the
    /// last event that ended (with or without data).
    public private(set) var lastEventID: String?
    /// The last reconnection delay a `retry` line set, whether or not its event had data.
    public private(set) var reconnectionDelay: Duration?
    /// Whether a whole line has been read, a comment (a server's heartbeat) included: the server
    /// is speaking the protocol.
    private(set) var hasReadLine = false

    private var line: [UInt8] = []
    /// The last bytes ended with CR, so an LF starting the next ones ends no further line.
    private var endedWithCarriageReturn = false
    /// How many bytes of a leading byte order mark have been read: the mark may arrive split.
    private var byteOrderMarkBytes = 0
    private var atStart = true
    private var eventType: String?
    /// The `id` read in the current event; it becomes ``lastEventID`` when the event ends.
    private var lastEventIDBuffer: String?
    /// The current event's data lines, joined with LF, as bytes: appended in place, decoded once.
    private var data: [UInt8] = []
    private var hasData = false
    private var retry: Duration?
    /// Whether a line of the current event has been read; a comment does not count.
    private var isInsideEvent = false

    /// A parser with a line limit of `maximumLineLength` bytes and an event size limit of
    /// `maximumEventSize` bytes.
    public init(
        maximumLineLength: Int = ServerSentEventParser.defaultMaximumLineLength,
        maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize
    ) {
        self.maximumLineLength = maximumLineLength
        self.maximumEventSize = maximumEventSize
    }

    /// A parser for a stream that resumes another: its events carry `lastEventID` until the
    /// stream sets a new one, as a browser's `EventSource` keeps it across reconnections.
    init(maximumLineLength: Int, maximumEventSize: Int, lastEventID: String?) {
        self.init(maximumLineLength: maximumLineLength, maximumEventSize: maximumEventSize)
        self.lastEventID = lastEventID
        self.lastEventIDBuffer = lastEventID
    }

    /// Reads `chunk` and returns the events it completes, in order.
    ///
    /// - Throws: ``ServerSentEventError/lineTooLong(limit:)`` or
    ///   ``ServerSentEventError/eventTooLarge(limit:)``; the parser must not be used after.
    public mutating func parse(_ chunk: Data) throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var bytes = chunk[...]
        while let event = try nextEvent(in: &bytes) { events.append(event) }
        return events
    }

    /// Reads `bytes` up to the end of the first event they complete and returns that event,
    /// leaving the rest in `bytes`; `nil` once `bytes` is read to its end without completing one.
    /// What reads events one at a time, so none is parsed before it is asked for.
    mutating func nextEvent(in bytes: inout Data.SubSequence) throws -> ServerSentEvent? {
        if endedWithCarriageReturn, let first = bytes.first {
            endedWithCarriageReturn = false
            if first == UInt8(ascii: "\n") { bytes = bytes.dropFirst() }
        }
        if atStart { skipByteOrderMark(in: &bytes) }
        while let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            try append(bytes[..<end])
            let next = bytes.index(after: end)
            if bytes[end] == UInt8(ascii: "\r") {
                if next == bytes.endIndex {
                    endedWithCarriageReturn = true
                    bytes = bytes[next...]
                } else {
                    bytes = bytes[(bytes[next] == UInt8(ascii: "\n") ? bytes.index(after: next) : next)...]
                }
            } else {
                bytes = bytes[next...]
            }
            let event = try processLine()
            line.removeAll(keepingCapacity: line.count <= Self.keptCapacity)
            if let event { return event }
        }
        try append(bytes)
        bytes = bytes[bytes.endIndex...]
        return nil
    }

    /// Says the stream ended.
    ///
    /// - Throws: ``ServerSentEventError/streamEndedMidEvent`` when it ended inside an event:
    ///   the standard drops such an event, and the caller learns the stream was cut.
    public mutating func finish() throws {
        defer { resetEvent() }
        // A last line without its line break counts, unless it is a comment.
        guard line.isEmpty || line[0] == UInt8(ascii: ":") else {
            throw ServerSentEventError.streamEndedMidEvent
        }
        if isInsideEvent { throw ServerSentEventError.streamEndedMidEvent }
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// The buffers keep up to this much room between lines and events; a larger one is let go, so
    /// one large event does not hold its memory for the stream's whole life.
    private static let keptCapacity = 4_096

    /// Drops a leading byte order mark, which may arrive a byte at a time; a part of one followed
    /// by anything else is content.
    private mutating func skipByteOrderMark(in bytes: inout Data.SubSequence) {
        while atStart, let byte = bytes.first {
            if byte == Self.byteOrderMark[byteOrderMarkBytes] {
                bytes = bytes.dropFirst()
                byteOrderMarkBytes += 1
                if byteOrderMarkBytes == Self.byteOrderMark.count { atStart = false }
            } else {
                atStart = false
                line.append(contentsOf: Self.byteOrderMark[..<byteOrderMarkBytes])
            }
        }
    }

    private mutating func append(_ bytes: Data.SubSequence) throws {
        guard line.count + bytes.count <= maximumLineLength else {
            throw ServerSentEventError.lineTooLong(limit: maximumLineLength)
        }
        line.append(contentsOf: bytes)
    }

    /// Applies one complete line; returns the event a blank line completes.
    private mutating func processLine() throws -> ServerSentEvent? {
        hasReadLine = true
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        isInsideEvent = true
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let field = line[..<(colon ?? line.endIndex)]
        var valueStart = colon.map { line.index(after: $0) } ?? line.endIndex
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = line[valueStart...]
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            // In place: joining strings copied the data so far for every line, quadratic in its size.
            let size = data.count + (hasData ? 1 : 0) + value.count
            guard size <= maximumEventSize else { throw ServerSentEventError.eventTooLarge(limit: maximumEventSize) }
            if hasData { data.append(UInt8(ascii: "\n")) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let milliseconds = Int64(String(decoding: value, as: UTF8.self))
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
        lastEventID = lastEventIDBuffer
        guard hasData else { return nil }
        return ServerSentEvent(
            id: lastEventID, event: eventType.flatMap { $0.isEmpty ? nil : $0 } ?? "message",
            data: String(decoding: data, as: UTF8.self), retry: retry)
    }

    private mutating func resetEvent() {
        eventType = nil
        data.removeAll(keepingCapacity: data.count <= Self.keptCapacity)
        hasData = false
        retry = nil
        isInsideEvent = false
    }
}
