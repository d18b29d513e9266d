// A multipart form whose field names, file names and content types come from elsewhere (a server's
// form description, a user's file name).
//
// Input: fields separated by NUL bytes: the boundary, then for each part its name, file name (none
// when empty), content type (none when empty) and content.
// Checks: encoding fails exactly for a boundary outside RFC 2046's grammar or a content type with a
// line break; otherwise each part's head is the boundary line, a `Content-Disposition` whose quoted
// name and file name hold no quote, CR or LF, and read back (`%22`, `%0D`, `%0A` undone) to the
// values given, and the content type; the body the transport gets is the body encoded in memory, and
// its `Content-Length` is its length.

import Foundation

@testable import ECNetworking

enum MultipartTarget: FuzzTarget {
    static let name = "multipart"
    static let warmUp = Array("b0undary\0field\0\0\0value\0file\0a\"b.txt\0text/plain\0content".utf8)

    static func run(_ input: [UInt8]) {
        let values = fields(input, separator: 0)
        let boundary = text(values[0])
        var form = MultipartFormData(boundary: boundary)
        var parts = values.dropFirst()
        while !parts.isEmpty {
            let name = text(parts.popFirst() ?? [])
            let fileName = parts.popFirst().flatMap { $0.isEmpty ? nil : text($0) }
            let contentType = parts.popFirst().flatMap { $0.isEmpty ? nil : text($0) }
            let content = Data(parts.popFirst() ?? [])
            form.append(content, name: name, fileName: fileName, contentType: contentType)
        }

        let boundaryIsValid = isValid(boundary: boundary)
        let hasLineBreak = form.parts.contains { part in
            part.contentType?.utf8.contains { $0 == 0x0D || $0 == 0x0A } ?? false
        }
        let body: Data
        do {
            body = try form.encodedInMemory()
        } catch {
            check(
                !boundaryIsValid || hasLineBreak,
                "encoding failed for a valid boundary and content types without line breaks: \(error)")
            return
        }
        check(boundaryIsValid, "encoding succeeded with the invalid boundary \(boundary.debugDescription)")
        check(!hasLineBreak, "encoding succeeded with a line break in a content type")

        for part in form.parts {
            guard let head = try? part.head(boundary: boundary) else {
                fatalError("a part's head failed although the whole body was encoded")
            }
            checkHead(Array(head), of: part, boundary: boundary)
        }
        guard let (transportBody, file) = try? form.transportBody(), file == nil,
            case .bytes(let bytes) = transportBody.source
        else {
            fatalError("a small form's transport body is not its bytes")
        }
        check(bytes == body, "the transport body differs from the body encoded in memory")
        check(transportBody.length == body.count, "the transport body's length is not its size")
    }

    /// Reads the head back and checks it says what the part holds.
    static func checkHead(_ head: [UInt8], of part: MultipartPart, boundary: String) {
        var rest = head[...]
        func expect(_ literal: String) {
            check(
                rest.starts(with: literal.utf8),
                "expected \(literal.debugDescription) in \(text(head).debugDescription)")
            rest = rest.dropFirst(literal.utf8.count)
        }
        func quoted() -> ArraySlice<UInt8> {
            let end = rest.firstIndex(of: UInt8(ascii: "\"")) ?? rest.endIndex
            defer { rest = rest[end...] }
            return rest[..<end]
        }
        expect("--\(boundary)\r\nContent-Disposition: form-data; name=\"")
        checkQuoted(quoted(), reads: part.name)
        expect("\"")
        if let fileName = part.fileName {
            expect("; filename=\"")
            checkQuoted(quoted(), reads: fileName)
            expect("\"")
        }
        expect("\r\n")
        if let contentType = part.contentType { expect("Content-Type: \(contentType)\r\n") }
        expect("\r\n")
        check(rest.isEmpty, "the head goes on after its blank line: \(text(head).debugDescription)")
    }

    /// A quoted value has no byte that would end the quoted string or the header, and reads back
    /// to `value` unless `value` itself holds one of the escapes (then the reading is ambiguous,
    /// as it is for browsers).
    static func checkQuoted(_ quoted: ArraySlice<UInt8>, reads value: String) {
        check(!quoted.contains(0x0D) && !quoted.contains(0x0A), "a quoted value holds a line break")
        let escapes = ["%22": "\"", "%0D": "\r", "%0A": "\n"]
        guard !escapes.keys.contains(where: { containsBytes(value, $0) }) else { return }
        var unescaped = Array(quoted)
        for (escape, character) in escapes {
            unescaped = replacing(Array(escape.utf8), with: Array(character.utf8), in: unescaped)
        }
        check(
            unescaped == Array(value.utf8),
            "\(value.debugDescription) was quoted as \(text(quoted).debugDescription), which reads back otherwise")
    }

    static func replacing(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: pattern) {
                result += replacement
                index += pattern.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// RFC 2046 §5.1.1: 1 to 70 characters from its set, not ending with a space.
    static func isValid(boundary: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=? ".utf8)
        return (1...70).contains(boundary.utf8.count) && boundary.utf8.allSatisfy(allowed.contains)
            && boundary.utf8.last != UInt8(ascii: " ")
    }
}
