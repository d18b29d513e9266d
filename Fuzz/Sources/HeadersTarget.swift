// Header names and values and a method checked before a request goes on the wire, and headers as
// they are shown.
//
// Input: fields separated by NUL bytes: the method, then a name and a value for each header.
// Checks: a name or method is accepted exactly when it is an RFC 9110 token, and a value exactly
// when it has no CR, LF or NUL; building the wire request fails, with `invalidRequest`, exactly
// when one of them is refused; a method is idempotent exactly when it is one of the six RFC 9110
// names; the headers' lookups agree with one another; and `SECRETVALUE`, when it is only in the
// values of sensitive headers, shows in no description, dump or redacted copy.

import Foundation

@testable import ECNetworking

enum HeadersTarget: FuzzTarget {
    static let name = "headers"
    static let warmUp = Array("PATCH\0Accept\0application/json\0Authorization\0Bearer SECRETVALUE".utf8)
    static let secret = "SECRETVALUE"
    static let tokenBytes = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    static let configuration = NetworkConfiguration(baseURL: URL(string: "https://example.com/")!)

    static func run(_ input: [UInt8]) {
        let values = fields(input, separator: 0).map(text)
        let method = HTTPMethod(rawValue: values[0])
        var headers = HTTPHeaders()
        var pairs = values.dropFirst()
        while let name = pairs.popFirst() {
            headers.add(name: name, value: pairs.popFirst() ?? "")
        }

        let methodIsValid = isToken(method.rawValue)
        check(HeaderValidation.isToken(method.rawValue) == methodIsValid, "isToken is wrong for the method")
        let headersAreValid = headers.allSatisfy { field in
            check(HeaderValidation.isToken(field.name) == isToken(field.name), "isToken is wrong for a name")
            return isToken(field.name) && !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
        }
        check(
            ((try? HeaderValidation.validate(headers)) != nil) == headersAreValid,
            "validation disagrees with the grammar for \(headers.fields)")
        let request = NetworkRequest(headers: headers, method: method, url: URL(string: "https://example.com/a")!)
        do {
            _ = try WireRequest(request, configuration: configuration)
            check(methodIsValid && headersAreValid, "an invalid method or header reached the wire")
        } catch NetworkError.invalidRequest {
            check(!methodIsValid || !headersAreValid, "a valid request was refused")
        } catch {
            fatalError("building the wire request threw \(error)")
        }
        let idempotent = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"].contains {
            $0.utf8.elementsEqual(method.rawValue.utf8)
        }
        check(method.isIdempotent == idempotent, "\(method.rawValue.debugDescription) idempotent: \(idempotent)")

        // Once per name, however often it repeats: fields of one name answer the same lookups, and
        // checking each of n equal fields would cost the harness n² on inputs the library handles in n.
        var checkedNames: Set<String> = []
        for field in headers where checkedNames.insert(field.name.lowercased()).inserted {
            let values = headers.values(for: field.name)
            check(!values.isEmpty && headers.contains(name: field.name), "a field present is not found")
            check(headers[field.name] == values.joined(separator: ", "), "the subscript does not join the values")
            var removed = headers
            removed.remove(name: field.name)
            check(!removed.contains(name: field.name), "a removed field is still found")
            check(removed.count == headers.count - values.count, "remove took away other fields")
        }
        checkRedaction(headers)
    }

    static func checkRedaction(_ headers: HTTPHeaders) {
        let isSensitive = { (field: HTTPHeaders.Field) in Redaction.default.isSensitiveHeader(field.name) }
        guard headers.contains(where: { isSensitive($0) && containsBytes($0.value, secret) }),
            !headers.contains(where: {
                containsBytes($0.name, secret) || (!isSensitive($0) && containsBytes($0.value, secret))
            })
        else { return }
        var dumped = ""
        dump(headers, to: &dumped)
        let shown = [
            headers.description, headers.debugDescription, dumped,
            // One value a line: joined with nothing, two values could spell the secret between them.
            Redaction.default.headers(headers).fields.map(\.value).joined(separator: "\n"),
        ]
        for text in shown {
            check(!containsBytes(text, secret), "a sensitive header's value shows in \(text.debugDescription)")
        }
    }

    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(tokenBytes.contains)
    }
}
