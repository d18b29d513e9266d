import Foundation

/// One part of a ``MultipartFormData``: its headers' values and where its bytes come from.
struct MultipartPart: Sendable {
    enum Source: Sendable {
        case data(Data)
        case file(URL)
    }

    let name: String
    let fileName: String?
    let contentType: String?
    /// Headers of the part's own, after `Content-Disposition` and `Content-Type`.
    var headers: HTTPHeaders = [:]
    let source: Source

    /// The part's boundary line and headers, up to the blank line before its content. With
    /// `extendedFileName`, a file name that is not ASCII also goes in a `filename*` parameter
    /// (RFC 8187's `UTF-8''` form), after the `filename` browsers send.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a content type or header value with
    ///   a line break (which would start a header of its own), a header name that is not a token,
    ///   and a header the form sets itself (`Content-Disposition`, `Content-Type`).
    func head(boundary: String, extendedFileName: Bool = false) throws -> Data {
        var disposition = "form-data; name=\"\(Self.quoted(name))\""
        if let fileName {
            disposition += "; filename=\"\(Self.quoted(fileName))\""
            if extendedFileName, !fileName.unicodeScalars.allSatisfy(\.isASCII) {
                disposition += "; filename*=UTF-8''" + Self.percentEncoded(fileName)
            }
        }
        var text = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
        if let contentType {
            guard !Self.hasLineBreak(contentType) else {
                throw NetworkError.invalidRequest(
                    reason: "the content type of multipart part \"\(name)\" has a line break")
            }
            text += "Content-Type: \(contentType)\r\n"
        }
        for field in headers {
            let lowercased = field.name.lowercased()
            guard lowercased != "content-disposition", lowercased != "content-type" else {
                throw NetworkError.invalidRequest(
                    reason: "multipart part \"\(name)\" sets \(field.name), which the form sets from its name, "
                        + "file name and content type")
            }
            guard HeaderValidation.isToken(field.name), !Self.hasLineBreak(field.value) else {
                throw NetworkError.invalidRequest(
                    reason: "multipart part \"\(name)\" has a header that is not a valid field: "
                        + String(reflecting: field.name))
            }
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "\r\n"
        return Data(text.utf8)
    }

    private static func hasLineBreak(_ value: String) -> Bool {
        value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" }
    }

    /// `value`'s UTF-8 bytes with everything but RFC 8187's `attr-char` percent-encoded.
    private static func percentEncoded(_ value: String) -> String {
        var encoded = ""
        for byte in value.utf8 {
            let isAttributeCharacter =
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "!#$&+-.^_`|~".utf8.contains(byte)
                }
            if isAttributeCharacter {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// The size of the content, read from the file system for a file.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` when the file is not a readable regular file.
    func contentLength() throws -> Int {
        switch source {
        case .data(let data): data.count
        case .file(let url): try TransportRequestBody.file(at: url).length ?? 0
        }
    }

    /// Escapes what would end the quoted string or the header, as browsers do (WHATWG HTML,
    /// "multipart/form-data encoding algorithm").
    ///
    /// Scalar by scalar: a search by characters misses a quote or a line break that a combining
    /// mark follows, since the two make one character, and would leave it in the header.
    private static func quoted(_ value: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped.append(contentsOf: "%22".unicodeScalars)
            case "\r": escaped.append(contentsOf: "%0D".unicodeScalars)
            case "\n": escaped.append(contentsOf: "%0A".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
