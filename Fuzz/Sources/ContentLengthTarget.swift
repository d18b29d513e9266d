// A response's `Content-Length`, which libcurl reads by the digits it starts with: the library
// refuses one that is not a length (`HTTPURLResponse.isMalformedContentLength`), so a body is never
// cut where a malformed field's prefix says.
//
// Input: the field's value, as the server sent it.
// Checks: a value the check accepts is a length: after optional spaces and tabs, digits (at most 18)
// or a comma-separated list of the same digits, whose number reads as an `Int64`; a value of digits
// alone is always accepted.

import Foundation

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

enum ContentLengthTarget: FuzzTarget {
    static let name = "content-length"
    static let warmUp = Array("1024".utf8)

    static func run(_ input: [UInt8]) {
        let value = text(input[...])
        let isMalformed = HTTPURLResponse.isMalformedContentLength(value)
        let elements = value.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: [" ", "\t"])
        }
        let isDigits = { (element: String) in
            !element.isEmpty && element.utf8.count <= 18 && element.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        }
        if elements.count == 1, isDigits(elements[0]) {
            check(!isMalformed, "the length \(value.debugDescription) was refused")
        }
        guard !isMalformed else { return }
        check(elements.allSatisfy(isDigits), "\(value.debugDescription) was taken for a length")
        check(Set(elements).count == 1, "\(value.debugDescription), lengths that disagree, was taken")
        check(Int64(elements[0]) != nil, "\(value.debugDescription) does not read as a number")
    }
}
