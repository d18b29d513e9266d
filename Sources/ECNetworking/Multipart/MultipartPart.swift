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
    let source: Source

    /// The part's boundary line and headers, up to the blank line before its content.
    ///
    /// - Throws: ``NetworkError/invalidRequest(reason:)`` for a content type with a line break,
    ///   which would start a header of its own.
    func head(boundary: String) throws -> Data {
        var disposition = "form-data; name=\"\(Self.quoted(name))\""
        if let fileName { disposition += "; filename=\"\(Self.quoted(fileName))\"" }
        var text = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
        if let contentType {
            guard !contentType.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw NetworkError.invalidRequest(
                    reason: "the content type of multipart part \"\(name)\" has a line break")
            }
            text += "Content-Type: \(contentType)\r\n"
        }
        text += "\r\n"
        return Data(text.utf8)
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
