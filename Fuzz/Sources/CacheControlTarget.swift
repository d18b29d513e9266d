// What a response's `Cache-Control` and `Vary` say about storing it, and which later requests a
// stored response may answer.
//
// Input: lines `Name: value`; a line that starts with `>` is a header of the request, any other one
// of the response.
// Checks: the directives do not depend on whether a list comes in one field or several (RFC 9110
// §5.3); a `no-store` or `private` item is always seen; the varied names are lowercased, trimmed
// and never empty; a response stored for a request answers that same request (unless `Vary: *`),
// and never one that differs in a header `Vary` names.

import Foundation

@testable import ECNetworking

enum CacheControlTarget: FuzzTarget {
    static let name = "cache-control"
    static let warmUp = Array(
        "Cache-Control: private, max-age=60\nVary: Accept, Accept-Encoding\n>Accept: application/json".utf8)

    static func run(_ input: [UInt8]) {
        var response = HTTPHeaders()
        var request = NetworkRequest(url: URL(string: "https://example.com/")!)
        for line in fields(input, separator: UInt8(ascii: "\n")) {
            let isRequest = line.first == UInt8(ascii: ">")
            let field = isRequest ? line.dropFirst() : line
            let colon = field.firstIndex(of: UInt8(ascii: ":")) ?? field.endIndex
            let name = text(field[..<colon])
            let value = text(field[colon...].dropFirst().drop { $0 == UInt8(ascii: " ") })
            if isRequest {
                request.headers.add(name: name, value: value)
            } else {
                response.add(name: name, value: value)
            }
        }

        let directives = CacheControl(response)
        var joined = HTTPHeaders()
        for name in ["Cache-Control", "Vary"] {
            let values = response.values(for: name)
            if !values.isEmpty { joined.add(name: name, value: values.joined(separator: ", ")) }
        }
        let fromJoined = CacheControl(joined)
        check(
            directives.forbidsStoring == fromJoined.forbidsStoring && directives.isPrivate == fromJoined.isPrivate
                && directives.variedHeaderNames == fromJoined.variedHeaderNames,
            "the directives depend on how the list is split into fields")

        let items = response.values(for: "Cache-Control").flatMap(listItems)
        if items.contains(where: { isDirective($0, named: "no-store") }) {
            check(directives.forbidsStoring, "no-store was missed")
        }
        if items.contains(where: { isDirective($0, named: "private") }) {
            check(directives.isPrivate, "private was missed")
        }
        for name in directives.variedHeaderNames {
            check(!name.isEmpty && !name.contains(","), "varied name \(name.debugDescription) is not one list item")
            check(name == name.lowercased(), "varied name \(name.debugDescription) is not lowercased")
            check(
                name.utf8.first.map(isSpace) != true && name.utf8.last.map(isSpace) != true,
                "varied name \(name.debugDescription) is not trimmed")
        }
        check(
            directives.variesOnEverything == directives.variedHeaderNames.contains("*"),
            "variesOnEverything disagrees with the names")

        let varied = StoredResponse.variedHeaders(of: request, cacheControl: directives, sensitiveData: .default)
        let stored = StoredResponse(statusCode: 200, headers: response, variedRequestHeaders: varied)
        check(
            stored.matchesVariedHeaders(of: request, sensitiveData: .default) == !directives.variesOnEverything,
            "a response stored for a request does not answer that same request; Vary: \(directives.variedHeaderNames)")
        // A few names are enough: each check reads every name and normalizes the sensitive names
        // again (a millisecond in this build), and the harness must stay fast.
        for name in directives.variedHeaderNames.prefix(3)
        where name != "*" && !Redaction.default.isSensitiveHeader(name) {
            var other = request
            other.headers[name] = (request.headers[name] ?? "") + "x"
            check(
                !stored.matchesVariedHeaders(of: other, sensitiveData: .default),
                "a stored response answers a request with another \(name) header")
        }
    }

    /// The items of a list-valued field, split at commas and trimmed of spaces and tabs.
    static func listItems(_ value: String) -> [[UInt8]] {
        value.utf8.split(separator: UInt8(ascii: ",")).map { item in
            let bytes = Array(item)
            let start = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
            let end = bytes.lastIndex { !isSpace($0) }.map { $0 + 1 } ?? start
            return Array(bytes[start..<end])
        }
    }

    /// Whether `item` is the directive `name` (ASCII, lowercase), with or without an argument.
    static func isDirective(_ item: [UInt8], named name: String) -> Bool {
        let directive = item.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)[0]
        return directive.map(\.asciiLowercased).elementsEqual(name.utf8)
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}
