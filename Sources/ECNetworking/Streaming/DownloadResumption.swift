import Foundation

/// The part of a body a resumed download asks for (RFC 9110 §14): every byte from `offset` on,
/// provided the body is still the one `validator` names. The request carries `Range` and
/// `If-Range`, so a server whose body changed answers `200` with the whole new one.
struct DownloadResumption: Sendable, Equatable {
    /// How many bytes of the body the partial file holds: the first byte asked for.
    var offset: Int64
    /// The body's strong validator, as the server wrote it: an `ETag`, or a `Last-Modified` date.
    var validator: String

    /// Adds `Range` and `If-Range` to `request`, before any action sees it (a signing action
    /// signs them too).
    func apply(to request: inout NetworkRequest) {
        request.headers["Range"] = "bytes=\(offset)-"
        request.headers["If-Range"] = validator
    }

    /// Applies the range as ``apply(to:)`` does, and makes a `416` one of the request's acceptable
    /// answers, besides its own or else `defaults`: a `416` may say the body is exactly what was
    /// kept, which ends the download as a success, so it is not a failed send for the failure
    /// actions and the metrics; the download decides (see `FileDownload`). For a network that
    /// streams the body itself; another fails its send with the `416`, which the download reads.
    func apply(to request: inout NetworkRequest, acceptingBesides defaults: Set<Int>) {
        apply(to: &request)
        request.acceptableStatusCodes = (request.acceptableStatusCodes ?? defaults).union([416])
    }

    /// Whether `response`, a `206`, carries the rest of the body from ``offset`` on: its
    /// `Content-Range` starts there and runs to the body's end (a server may send less than an
    /// open range asks for, which would leave the file short): the complete length it names, or
    /// when it names none (`bytes N-M/*`), `expectedByteCount`, the length the first answer gave,
    /// if it gave one; and its `ETag`, when the validator is one, has not changed.
    func isAnsweredBy(_ response: NetworkResponse, expectedByteCount: Int64?) -> Bool {
        guard let range = response.headers["Content-Range"].flatMap(ContentRange.init), range.first == offset,
            let last = range.last, (range.completeLength ?? expectedByteCount).map({ last + 1 == $0 }) ?? true
        else {
            return false
        }
        if Self.isStrongEntityTag(validator), let tag = response.headers["ETag"], tag != validator { return false }
        return Self.hasIdentityCoding(response)
    }

    /// The strong validator of `response` that a later `If-Range` may name, or `nil` when the body
    /// cannot be resumed: it is encoded (the transport decodes it, so the bytes on the disk are
    /// not the bytes a range counts), the server refuses ranges, or it has no strong validator.
    /// A `Last-Modified` date is strong only when the response's `Date` is at least 60 seconds
    /// later (RFC 9110 §8.8.2.2): a body changed twice within a second keeps its date.
    static func validator(of response: NetworkResponse) -> String? {
        let headers = response.headers
        guard hasIdentityCoding(response), headers["Accept-Ranges"]?.lowercased() != "none" else { return nil }
        if let tag = headers["ETag"], isStrongEntityTag(tag) { return tag }
        guard let modified = headers["Last-Modified"], let modifiedDate = HTTPDate.parse(modified),
            let date = headers["Date"].flatMap(HTTPDate.parse), date.timeIntervalSince(modifiedDate) >= 60
        else { return nil }
        return modified
    }

    /// Whether `validator`, read back from ``ResumeData`` that may have been stored and edited,
    /// is one this library could have kept: a strong entity tag, or an HTTP date. Anything else
    /// (a line break, say) would never reach a header.
    static func isUsable(_ validator: String) -> Bool {
        isStrongEntityTag(validator)
            || (validator.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } && HTTPDate.parse(validator) != nil)
    }

    /// `"…"` with `etagc` characters inside (RFC 9110 §8.8.3), and no `W/` prefix.
    static func isStrongEntityTag(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else {
            return false
        }
        return bytes.dropFirst().dropLast().allSatisfy { $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }
    }

    /// Whether `response`'s body is sent as it is, with no `Content-Encoding` (or `identity`):
    /// only then do the bytes written count as a range counts them.
    static func hasIdentityCoding(_ response: NetworkResponse) -> Bool {
        let coding = response.headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased()
        return coding == nil || coding == "" || coding == "identity"
    }
}

/// A `Content-Range: bytes first-last/complete` field of a `206` (RFC 9110 §14.4), or the
/// `bytes */complete` of a `416`.
struct ContentRange: Sendable, Equatable {
    /// The first byte's position; `nil` for an unsatisfied range (`*`).
    var first: Int64?
    /// The last byte's position; `nil` for an unsatisfied range.
    var last: Int64?
    /// The whole body's length, when the server knows it.
    var completeLength: Int64?

    /// A range from its parts.
    init(first: Int64?, last: Int64?, completeLength: Int64?) {
        self.first = first
        self.last = last
        self.completeLength = completeLength
    }

    /// Parses the field; `nil` for anything else, including positions that do not fit, a last
    /// byte before the first, or one at or past the complete length.
    init?(_ value: String) {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.count > 6, text.prefix(6).lowercased() == "bytes " else { return nil }
        let parts = text.dropFirst(6).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[1] == "*" {
            completeLength = nil
        } else {
            guard let length = Self.position(parts[1]) else { return nil }
            completeLength = length
        }
        if parts[0] == "*" {
            // An unsatisfied range names the complete length, which is then required.
            guard completeLength != nil else { return nil }
            first = nil
            last = nil
            return
        }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.position(bounds[0]), let last = Self.position(bounds[1]),
            first <= last
        else { return nil }
        if let completeLength, last >= completeLength { return nil }
        self.first = first
        self.last = last
    }

    /// A non-negative decimal that fits `Int64`, digits alone.
    private static func position(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 19, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        return Int64(text)
    }
}
