import Foundation

/// The headers of one part of a `multipart/form-data` body (RFC 7578), checked: a
/// `Content-Disposition` of `form-data` with a `name`, and at most one `Content-Type` of the form
/// `type/subtype`. Other headers are ignored, as the RFC asks.
struct PartHeaders {
    let name: String
    let fileName: String?
    let contentType: String?

    /// Reads the header lines of `block`, each ended by CRLF, up to (not including) the blank line.
    ///
    /// - Throws: ``DemoServerError`` `400` naming what is wrong.
    init(parsing block: ArraySlice<UInt8>) throws {
        guard let text = String(bytes: block, encoding: .utf8) else {
            throw DemoServerError.badRequest("The headers of a part are not UTF-8 text.")
        }
        var disposition: HeaderParameters?
        var contentType: String?
        // A CRLF is one `Character` in Swift, so the lines split cleanly at it.
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard !line.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw DemoServerError.badRequest("A part header has a bare CR or LF.")
            }
            guard let colon = line.firstIndex(of: ":"), line.first != " ", line.first != "\t" else {
                throw DemoServerError.badRequest("A part header is not of the form `Name: value`: \(line)")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-disposition":
                guard disposition == nil else {
                    throw DemoServerError.badRequest("A part has two Content-Disposition headers.")
                }
                guard let parsed = HeaderParameters(value) else {
                    throw DemoServerError.badRequest("A part's Content-Disposition cannot be read: \(value)")
                }
                disposition = parsed
            case "content-type":
                guard contentType == nil else {
                    throw DemoServerError.badRequest("A part has two Content-Type headers.")
                }
                guard value.split(separator: ";")[0].split(separator: "/").count == 2 else {
                    throw DemoServerError.badRequest("A part's Content-Type is not `type/subtype`: \(value)")
                }
                contentType = value
            default:
                break
            }
        }
        guard let disposition else {
            throw DemoServerError.badRequest("A part has no Content-Disposition header.")
        }
        guard disposition.value == "form-data" else {
            throw DemoServerError.badRequest("A part's Content-Disposition is `\(disposition.value)`, not `form-data`.")
        }
        guard let name = disposition.parameters["name"] else {
            throw DemoServerError.badRequest("A part's Content-Disposition has no name.")
        }
        self.name = name
        self.fileName = disposition.parameters["filename"]
        self.contentType = contentType
    }
}
