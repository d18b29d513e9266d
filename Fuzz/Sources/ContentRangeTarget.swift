// What a server says when a download resumes: the `Content-Range` of a `206` or `416`, and the
// validator (`ETag`, `Last-Modified` with `Date`) a broken body is kept under.
//
// Input: lines `Name: value`; a line `Content-Range: …` is parsed as a range, the others are the
// response's headers.
// Checks: a parsed range is consistent (first ≤ last < complete length; an unsatisfied one names
// its length) and reads back to itself from its canonical form; a validator the library keeps is
// one it would send again (`isUsable`), has no CR, LF or NUL, and is never a weak tag; a body
// with a `Content-Encoding` other than identity never has one.

import Foundation

@testable import ECNetworking

enum ContentRangeTarget: FuzzTarget {
    static let name = "content-range"
    static let warmUp = Array(
        "Content-Range: bytes 0-9/10\nETag: \"v1\"\nLast-Modified: Sun, 06 Nov 1994 08:49:37 GMT\nDate: Sun, 06 Nov 1994 08:50:37 GMT"
            .utf8)

    static func run(_ input: [UInt8]) {
        var headers = HTTPHeaders()
        for line in fields(input, separator: UInt8(ascii: "\n")) {
            let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
            let name = text(line[..<colon])
            let value = text(line[colon...].dropFirst().drop { $0 == UInt8(ascii: " ") })
            if name.lowercased() == "content-range" {
                checkRange(value)
            } else {
                headers.add(name: name, value: value)
            }
        }
        let response = NetworkResponse(statusCode: 200, headers: headers)
        guard let validator = DownloadResumption.validator(of: response) else { return }
        check(DownloadResumption.isUsable(validator), "kept validator \(validator.debugDescription) is not usable")
        check(
            !validator.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 },
            "validator \(validator.debugDescription) breaks a line")
        check(!validator.hasPrefix("W/"), "weak validator \(validator.debugDescription) kept")
        let coding = headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        check(coding.isEmpty || coding == "identity", "an encoded body (\(coding)) kept a validator")
    }

    static func checkRange(_ value: String) {
        guard let range = ContentRange(value) else { return }
        let complete = range.completeLength.map(String.init) ?? "*"
        let canonical: String
        if let first = range.first, let last = range.last {
            check(first >= 0 && first <= last, "range \(value.debugDescription) reads as \(first)-\(last)")
            if let length = range.completeLength {
                check(last < length, "range \(value.debugDescription) ends past its length")
            }
            canonical = "bytes \(first)-\(last)/\(complete)"
        } else {
            check(range.first == nil && range.last == nil, "half a range in \(value.debugDescription)")
            check(range.completeLength != nil, "unsatisfied range \(value.debugDescription) without a length")
            canonical = "bytes */\(complete)"
        }
        check(ContentRange(canonical) == range, "\(value.debugDescription) does not read back from \(canonical)")
    }
}
