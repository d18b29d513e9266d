// The file name a download's response suggests (`Content-Disposition`, RFC 6266 and RFC 8187),
// which `DownloadDestination.suggestedName(in:)` puts in a folder of the caller's.
//
// Input: a `Content-Disposition` value.
// Checks: whatever the server sends, the name used is a plain, non-empty name of at most 255
// bytes: no `/` or `\`, no control character, no bidirectional control or other invisible format
// character (but the zero-width joiners), no leading dot (so never `.` or `..`), and made safe
// again it stays the same.

import Foundation

@testable import ECNetworking

enum ContentDispositionTarget: FuzzTarget {
    static let name = "content-disposition"
    static let warmUp = Array("attachment; filename=\"a.txt\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf".utf8)

    static func run(_ input: [UInt8]) {
        let value = text(input[...])
        if let raw = SuggestedFileName.fromContentDisposition(value), let name = SuggestedFileName.sanitized(raw) {
            checkPlain(name)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Disposition", value: value)
        let response = NetworkResponse(
            statusCode: 200, headers: headers, url: URL(string: "https://example.com/files/report.bin"))
        checkPlain(SuggestedFileName.of(response))
    }

    static func checkPlain(_ name: String) {
        check(!name.isEmpty, "an empty name")
        check(name.utf8.count <= 255, "a name of \(name.utf8.count) bytes")
        check(!name.contains("/") && !name.contains("\\"), "a separator in \(name.debugDescription)")
        check(!name.hasPrefix("."), "a leading dot in \(name.debugDescription)")
        check(
            !name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "a control character in \(name.debugDescription)")
        check(
            !name.unicodeScalars.contains {
                $0.properties.generalCategory == .format && $0 != "\u{200C}" && $0 != "\u{200D}"
            },
            "a format character in \(name.debugDescription)")
        check(SuggestedFileName.sanitized(name) == name, "\(name.debugDescription) changes when made safe again")
    }
}
