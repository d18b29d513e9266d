// A response's `Content-Type` checked against what its request accepts.
//
// Input: lines; the first is the `Content-Type`, the others the elements of an `Accept` header.
// Checks: the fast check over unparsed texts (`MediaRange.text(_:fallsInAnyOf:)`) agrees with
// checking against each range parsed, as its documentation promises; `Accept` split by
// `MediaRange.list` keeps exactly the elements that parse; a parsed type equals itself with its
// ASCII letters in the other case, and the same text cut out of a longer one; every range accepts
// itself, and `*/*` accepts every type; an `Accept` header with no `q=0` admits exactly the types
// one of its ranges accepts, and a type whose exact range has `q=0` (and no other range exactly
// its own) is not admitted.

import Foundation

@testable import ECNetworking

enum MediaTypesTarget: FuzzTarget {
    static let name = "media-types"
    static let warmUp = Array("application/problem+json; charset=utf-8\napplication/json\ntext/*;q=0.5\n*/*".utf8)

    static func run(_ input: [UInt8]) {
        let lines = fields(input, separator: UInt8(ascii: "\n")).map(text)
        guard let contentType = lines.first else { return }
        let ranges = Array(lines.dropFirst())

        let parsedType = MediaRange(contentType)
        let parsedRanges = ranges.compactMap(MediaRange.init)
        let slow =
            parsedRanges.isEmpty || parsedType.map { type in parsedRanges.contains { $0.accepts(type) } } ?? false
        check(
            MediaRange.text(contentType, fallsInAnyOf: ranges) == slow,
            "the check over texts disagrees with the check over parsed ranges")

        let accept = ranges.joined(separator: ",")
        let listed = MediaRange.list(accept)
        let expected = accept.split(separator: ",").compactMap(MediaRange.init)
        check(listed == expected, "MediaRange.list parsed \(listed.count) ranges, \(expected.count) expected")

        if !parsedRanges.contains(where: \.refuses) {
            check(parsedRanges.admit(parsedType) == slow, "an Accept header without q=0 admits otherwise")
        }
        if let parsedType, !parsedRanges.contains(where: { $0 == parsedType }) {
            let refusing = MediaRange(contentType + ";q=0")
            check(refusing?.refuses == true, "\(contentType.debugDescription);q=0 does not refuse")
            if let refusing {
                check(!(parsedRanges + [refusing]).admit(parsedType), "a type refused by its own range is admitted")
            }
        }

        for (original, range) in [(contentType, parsedType)] + ranges.map({ ($0, MediaRange($0)) }) {
            guard let range else { continue }
            check(range.accepts(range), "\(original.debugDescription) does not accept itself")
            check(MediaRange("*/*")!.accepts(range), "*/* does not accept \(original.debugDescription)")
            let swapped = String(decoding: original.utf8.map(swapASCIICase), as: UTF8.self)
            check(MediaRange(swapped) == range, "\(original.debugDescription) is not equal in the other case")
            let longer = "xx" + original + "yy"
            let cut = longer.utf8.dropFirst(2).dropLast(2)
            check(
                MediaRange(Substring(cut)) == range,
                "\(original.debugDescription) read from the middle of a longer text differs")
        }
    }

    static func swapASCIICase(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): byte ^ 0x20
        default: byte
        }
    }
}
