// A streamed body read as lines (NDJSON, JSON Lines, token streams).
//
// Input: one control byte (how the body is cut into chunks, and the line limit), then the body.
// Checks: the lines are those of a plain reading of the whole body (split at LF, one CR before it
// dropped, a last line without an ending kept), whatever the chunks; a line over the limit throws
// `lineTooLong` exactly where the plain reading finds the first one; after the end, `next()` keeps
// returning `nil`.

import Foundation

@testable import ECNetworking

enum ResponseLinesTarget: FuzzTarget {
    static let name = "lines"
    static let warmUp = Array("\u{1}{\"a\":1}\r\n{\"b\":2}\nlast".utf8)

    static func run(_ input: [UInt8]) {
        guard let control = input.first else { return }
        let body = input.dropFirst()
        let limit = control & 0x80 == 0 ? ResponseLines<Chunks>.defaultMaximumLength : Int(control & 0x3F)
        let expected = plainLines(of: body)
        let firstTooLong = expected.firstIndex { $0.count > limit }

        let (lines, error, nextAfterEnd) = read(chunks(of: body, seed: control), limit: limit)
        if let firstTooLong {
            check(
                error == .lineTooLong(limit: limit),
                "line \(firstTooLong) is over the limit of \(limit) bytes but reading ended with \(error as Any)")
            check(
                lines.map { Array($0.utf8) } == expected[..<firstTooLong].map { Array(text($0).utf8) },
                "the lines before the one over the limit differ")
        } else {
            check(error == nil, "no line is over the limit of \(limit) bytes, yet reading threw \(error as Any)")
            check(
                lines.map { Array($0.utf8) } == expected.map { Array(text($0).utf8) },
                "lines differ from a plain reading: \(lines) / \(expected.map(text))")
            check(nextAfterEnd == nil, "next() after the end returned \(nextAfterEnd as Any)")
        }
    }

    /// The lines as the documentation defines them, read from the whole body at once.
    static func plainLines(of body: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
        // The empty text after a last LF (or of an empty body) is no line.
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { $0.last == 0x0D ? $0.dropLast() : $0 }
    }

    /// Reads every line; the chunks never suspend, so the whole reading runs at once.
    static func read(_ chunks: [Data], limit: Int) -> ([String], ResponseLinesError?, String?) {
        let result = Box()
        Task.immediate {
            var iterator = ResponseLines(Chunks(chunks: chunks), maximumLength: limit).makeAsyncIterator()
            do {
                while let line = try await iterator.next() { result.lines.append(line) }
                result.nextAfterEnd = try await iterator.next()
            } catch {
                result.error = error as? ResponseLinesError
                check(result.error != nil, "reading threw an error of another type: \(error)")
            }
            result.isDone = true
        }
        check(result.isDone, "reading lines from chunks that never suspend suspended")
        return (result.lines, result.error, result.nextAfterEnd)
    }

    /// What the reading task hands back; the task runs to its end before `read` returns, on the same
    /// thread, so nothing is shared while it runs.
    final class Box: @unchecked Sendable {
        var lines: [String] = []
        var error: ResponseLinesError?
        var nextAfterEnd: String?
        var isDone = false
    }
}

/// Chunks already in memory, handed out without suspending.
struct Chunks: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]

    func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks) }

    struct Iterator: AsyncIteratorProtocol {
        var chunks: [Data]
        var index = 0

        mutating func next() async -> Data? {
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            return chunks[index]
        }
    }
}
