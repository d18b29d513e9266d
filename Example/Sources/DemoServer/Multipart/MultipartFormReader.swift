import Foundation

/// Reads a `multipart/form-data` body (RFC 7578, RFC 2046 section 5.1) as it arrives, a chunk at
/// a time, and describes each part: its name, file name, content type, size and checksum, and the
/// text of a field. File contents are counted and checksummed, never kept, so an upload of any
/// size costs the server a few kilobytes.
///
/// ```swift
/// var reader = MultipartFormReader(boundary: "XyZ")
/// for try await buffer in request.body { try reader.read(buffer.readableBytesView) }
/// let parts = try reader.finish()
/// ```
///
/// Anything that is not a well-formed form (a boundary line not ended by CRLF, a part without a
/// `form-data` disposition or a name, a body that stops before the closing boundary, a field that
/// is not UTF-8) throws ``DemoServerError`` `400`.
struct MultipartFormReader {
    /// The longest header block of one part.
    static let maximumHeaderBytes = 16 * 1_024
    /// The most parts a form may have.
    static let maximumPartCount = 100
    /// The longest text field; files have no limit.
    static let maximumFieldBytes = 64 * 1_024

    private enum Stage {
        /// Before the first boundary: a preamble, ignored.
        case preamble
        /// Just after a boundary: `--` ends the form, CRLF starts a part.
        case afterBoundary
        case headers
        case content
        /// After the closing boundary: an epilogue, ignored.
        case epilogue
    }

    /// CRLF, `--` and the boundary: what ends each part's content.
    private let delimiter: [UInt8]
    /// Bytes received and not yet read.
    private var pending: [UInt8]
    private var stage = Stage.preamble
    private var current: PartInProgress?
    private var parts: [ReceivedPart] = []

    /// A reader of a body whose parts are separated by `boundary`.
    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        // The first boundary may open the body without a CRLF before it: supply one.
        pending = Array("\r\n".utf8)
    }

    /// How many received bytes wait to be read: never more than a delimiter's length once a
    /// part's content is being read, whatever its size.
    var pendingByteCount: Int { pending.count }

    /// Reads the next bytes of the body.
    mutating func read(_ bytes: some Sequence<UInt8>) throws {
        pending.append(contentsOf: bytes)
        try readPending()
    }

    /// Says the body ended, and returns its parts in order.
    ///
    /// - Throws: ``DemoServerError`` `400` when the closing boundary has not arrived.
    mutating func finish() throws -> [ReceivedPart] {
        guard case .epilogue = stage else {
            throw DemoServerError.badRequest("The form ended before its closing boundary.")
        }
        return parts
    }

    private mutating func readPending() throws {
        var start = 0
        defer { pending.removeFirst(start) }
        while true {
            switch stage {
            case .preamble:
                guard let found = firstIndex(of: delimiter, from: start) else {
                    // Only what could be the beginning of the delimiter is kept.
                    start = max(start, pending.count - (delimiter.count - 1))
                    return
                }
                start = found + delimiter.count
                stage = .afterBoundary
            case .afterBoundary:
                guard let next = try partStart(at: start) else { return }
                start = next
            case .headers:
                guard let next = try headers(at: start) else { return }
                start = next
            case .content:
                guard let found = firstIndex(of: delimiter, from: start) else {
                    let safe = max(start, pending.count - (delimiter.count - 1))
                    try current?.append(pending[start..<safe])
                    start = safe
                    return
                }
                try current?.append(pending[start..<found])
                if let part = current { parts.append(try part.finished()) }
                current = nil
                start = found + delimiter.count
                stage = .afterBoundary
            case .epilogue:
                start = pending.count
                return
            }
        }
    }

    /// Reads what follows a boundary: `--` to close the form, or optional spaces and a CRLF to
    /// start a part. Returns where reading goes on, or `nil` to wait for more bytes.
    private mutating func partStart(at start: Int) throws -> Int? {
        guard pending.count - start >= 2 else { return nil }
        if pending[start] == UInt8(ascii: "-") && pending[start + 1] == UInt8(ascii: "-") {
            stage = .epilogue
            return start + 2
        }
        // RFC 2046 allows spaces and tabs (transport padding) before the CRLF.
        var index = start
        while index < pending.count, pending[index] == UInt8(ascii: " ") || pending[index] == UInt8(ascii: "\t") {
            index += 1
        }
        guard index - start <= 64 else { throw DemoServerError.badRequest("A boundary line is padded too long.") }
        guard pending.count - index >= 2 else { return nil }
        guard pending[index] == UInt8(ascii: "\r"), pending[index + 1] == UInt8(ascii: "\n") else {
            throw DemoServerError.badRequest("A boundary line does not end with CRLF.")
        }
        guard parts.count < Self.maximumPartCount else {
            throw DemoServerError.badRequest("The form has more than \(Self.maximumPartCount) parts.")
        }
        stage = .headers
        return index + 2
    }

    /// Reads a part's header block, up to the blank line. Returns where its content starts, or
    /// `nil` to wait for more bytes.
    private mutating func headers(at start: Int) throws -> Int? {
        let blockEnd: Int
        let contentStart: Int
        if pending.count - start >= 2, pending[start] == UInt8(ascii: "\r"), pending[start + 1] == UInt8(ascii: "\n") {
            // No header at all: the part fails its check below for want of a Content-Disposition.
            (blockEnd, contentStart) = (start, start + 2)
        } else if let found = firstIndex(of: Self.blankLine, from: start) {
            (blockEnd, contentStart) = (found, found + Self.blankLine.count)
        } else {
            guard pending.count - start <= Self.maximumHeaderBytes else {
                throw DemoServerError.badRequest("A part's headers are longer than \(Self.maximumHeaderBytes) bytes.")
            }
            return nil
        }
        guard blockEnd - start <= Self.maximumHeaderBytes else {
            throw DemoServerError.badRequest("A part's headers are longer than \(Self.maximumHeaderBytes) bytes.")
        }
        current = PartInProgress(headers: try PartHeaders(parsing: pending[start..<blockEnd]))
        stage = .content
        return contentStart
    }

    private static let blankLine = Array("\r\n\r\n".utf8)

    /// Where `needle` first occurs in the pending bytes at or after `start`.
    ///
    /// `memchr` finds each candidate first byte: a byte-by-byte loop over megabytes of file
    /// content would be slow in a debug build, where the tests run.
    private func firstIndex(of needle: [UInt8], from start: Int) -> Int? {
        pending.withUnsafeBufferPointer { haystack in
            guard let base = haystack.baseAddress else { return nil }
            var index = start
            while haystack.count - index >= needle.count {
                guard let found = memchr(base + index, Int32(needle[0]), haystack.count - index) else { return nil }
                index = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
                guard haystack.count - index >= needle.count else { return nil }
                if memcmp(base + index, needle, needle.count) == 0 { return index }
                index += 1
            }
            return nil
        }
    }
}

/// The part being read: its headers, and what its content has added up to so far.
private struct PartInProgress {
    let headers: PartHeaders
    var byteCount = 0
    var checksum = CRC32()
    /// The content of a field, kept to report its text.
    var fieldBytes: [UInt8] = []

    init(headers: PartHeaders) {
        self.headers = headers
    }

    mutating func append(_ bytes: ArraySlice<UInt8>) throws {
        byteCount += bytes.count
        checksum.update(with: bytes)
        guard headers.fileName == nil else { return }
        guard fieldBytes.count + bytes.count <= MultipartFormReader.maximumFieldBytes else {
            throw DemoServerError.badRequest(
                "Field `\(headers.name)` is longer than \(MultipartFormReader.maximumFieldBytes) bytes.")
        }
        fieldBytes.append(contentsOf: bytes)
    }

    func finished() throws -> ReceivedPart {
        var value: String?
        if headers.fileName == nil {
            guard let text = String(bytes: fieldBytes, encoding: .utf8) else {
                throw DemoServerError.badRequest("Field `\(headers.name)` is not UTF-8 text.")
            }
            value = text
        }
        return ReceivedPart(
            name: headers.name, fileName: headers.fileName, contentType: headers.contentType, byteCount: byteCount,
            checksum: checksum.value, value: value)
    }
}
