import Foundation

/// Hides the secrets ``SensitiveData`` names wherever a request, response or error is shown:
/// header values, URL userinfo, query and fragment parameter values, and body field values.
///
/// Built once per configuration, since it normalizes the names; ``forDescriptions`` serves
/// descriptions. A class, shared rather than copied: it holds nine arrays of names, and the
/// redirect rules every attempt reads carry one.
package final class Redaction: Sendable {
    package static let placeholder = "<redacted>"
    /// The placeholder percent-encoded, where the text must stay a valid URL.
    static let urlPlaceholder = "%3Credacted%3E"

    private let headers: SensitiveNames
    private let queryParameters: SensitiveNames
    private let bodyFields: SensitiveNames

    /// The redaction of ``SensitiveData/default``, for storage keys, which have no configuration.
    static let `default` = Redaction(.default)

    package init(_ sensitiveData: SensitiveData) {
        headers = sensitiveData.headerNames
        queryParameters = sensitiveData.queryParameterNames
        bodyFields = sensitiveData.bodyFieldNames
    }

    func isSensitiveHeader(_ name: String) -> Bool {
        headers.matches(name)
    }

    /// The value of a header as it may be shown: the placeholder for a sensitive header; any
    /// other with each URL in it redacted as ``urlText(_:placeholder:)`` does, since a `Location`,
    /// `Content-Location`, `Link`, `Refresh` or `Referer` (or a header of an API's own) can carry a
    /// pre-signed URL's signature, a token parameter or userinfo.
    package func headerValue(name: String, value: String) -> String {
        headers.matches(name) ? Self.placeholder : urlsRedacted(inHeaderValue: value)
    }

    /// `value` with each of its words redacted as a URL. A header holds a URL among other words
    /// (`<https://…>; rel="next"`, `0; url=https://…`), so each run between spaces, tabs, angle
    /// brackets and quotes is taken alone: taken whole, a query would run on into the parameters
    /// after it, and an `@` of a word after a URL would read as the URL's userinfo.
    private func urlsRedacted(inHeaderValue value: String) -> String {
        // Only a query or fragment (`?`, `#`) or userinfo (`@`) can hold a secret: most values
        // have none of them, and are returned without building anything.
        guard
            value.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "@") }
            )
        else { return value }
        var result = ""
        var word = ""
        let scalars = value.unicodeScalars
        let placeholder = Self.placeholder.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "<", scalars[index...].starts(with: placeholder) {
                // A placeholder an earlier redaction left stays inside its word, so that redacting
                // the value again changes nothing.
                word.unicodeScalars.append(contentsOf: placeholder)
                index = scalars.index(index, offsetBy: placeholder.count)
                continue
            }
            if Self.headerWordSeparators.contains(scalar) {
                result += urlText(word)
                result.unicodeScalars.append(scalar)
                word = ""
            } else {
                word.unicodeScalars.append(scalar)
            }
            index = scalars.index(after: index)
        }
        return result + urlText(word)
    }

    /// What ends a word of a header value for ``urlsRedacted(inHeaderValue:)``: what cannot stand
    /// in a URL unencoded. Not the comma, which separates a list's members but may also stand in
    /// a query (`?ids=1,2&token=…`), where ending the word at it would hide the pair after it.
    private static let headerWordSeparators: Set<Unicode.Scalar> = [" ", "\t", "<", ">", "\""]

    /// The headers with each value as ``headerValue(name:value:)`` shows it, order and names kept.
    func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(
            headers.fields.map { HTTPHeaders.Field(name: $0.name, value: headerValue(name: $0.name, value: $0.value)) })
    }

    /// The URL as text without its userinfo and with the values of sensitive query and fragment
    /// parameters replaced.
    ///
    /// Built as text: `URLComponents` stops the process when given a query with `<` or `>`, and
    /// this line is for people and shells, not for sending.
    package func url(_ url: URL, placeholder: String = Redaction.placeholder) -> String {
        urlText(url.absoluteString, placeholder: placeholder)
    }

    /// `url` redacted as ``url(_:placeholder:)`` does, with the placeholder percent-encoded so that
    /// the result is still a URL, for a value handed on as one; `nil` in the unlikely case it no
    /// longer parses, where the original must not be handed on in its place.
    func redactedURL(_ url: URL) -> URL? {
        URL(string: self.url(url, placeholder: Self.urlPlaceholder))
    }

    /// The request's URL with its ``NetworkRequest/queryItems`` appended, redacted as ``url(_:placeholder:)``.
    func url(of request: NetworkRequest) -> String {
        guard !request.queryItems.isEmpty else { return url(request.url) }
        if let full = try? request.urlWithQuery() { return url(full) }
        // A URL that cannot take a query still shows which items were meant for it.
        let items = request.queryItems.map { item in
            queryParameters.matches(item.name) ? "\(item.name)=\(Self.placeholder)" : "\(item.name)=\(item.value ?? "")"
        }
        return url(request.url) + " + query " + items.joined(separator: "&")
    }

    func urlText(_ text: String, placeholder: String = Redaction.placeholder) -> String {
        // Most URLs hold nothing to redact; a scan of the bytes tells, without building any text.
        guard mayRedact(urlText: text) else { return text }
        // Split by Unicode scalar, as that scan reads the bytes: a combining mark after `#`, `?`,
        // `&`, `=` or `@` makes one character with it, which a search by characters passes over,
        // and the secret behind it would show.
        let scalars = text.unicodeScalars[...]
        let fragmentStart = scalars.firstIndex(of: "#") ?? scalars.endIndex
        let queryStart = scalars[..<fragmentStart].firstIndex(of: "?") ?? fragmentStart
        var result = Self.withoutUserinfo(scalars[..<queryStart], placeholder: placeholder)
        if queryStart < fragmentStart {
            let query = scalars[scalars.index(after: queryStart)..<fragmentStart]
            result += "?" + Self.redactPairs(query, names: queryParameters, placeholder: placeholder)
        }
        if fragmentStart < scalars.endIndex {
            let fragment = scalars[scalars.index(after: fragmentStart)...]
            result += "#" + Self.redactPairs(fragment, names: queryParameters, placeholder: placeholder)
        }
        return result
    }

    /// The body with the values of sensitive fields replaced, for form bodies and for JSON
    /// bodies (by content type, or a body that starts with `{` or `[`); any other body as it is.
    package func body(_ data: Data, contentType: String?) -> Data {
        guard !bodyFields.isEmpty, !data.isEmpty else { return data }
        let type = contentType ?? ""
        if Self.contains(type, lowercased: "x-www-form-urlencoded") {
            let text = String(decoding: data, as: UTF8.self)
            let pairs = Self.redactPairs(text.unicodeScalars[...], names: bodyFields, placeholder: Self.placeholder)
            return Data(pairs.utf8)
        }
        let firstByte = data.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard
            Self.contains(type, lowercased: "json") || firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[")
        else {
            return data
        }
        return JSONFieldRedaction.redact(data, placeholder: Self.placeholder) { bodyFields.matches(bytes: $0) }
    }

    /// The body, redacted, as a preview of at most `limit` bytes.
    func bodyPreview(_ data: Data, contentType: String?, limit: Int) -> String {
        BodyPreview.text(of: body(data, contentType: contentType), limit: limit)
    }

    /// What can be shown of `error`: a ``NetworkError`` or `URLError` without secrets (a `URLError`
    /// keeps its failing URL, token and userinfo included, in its user info), an `EncodingError`
    /// without the value that failed, a `DecodingError` as ``decodingDescription(_:)`` shows it,
    /// anything else as it describes itself.
    func describe(_ error: any Error) -> String {
        switch error {
        case let error as NetworkError:
            return error.sentence(redaction: self)
        case let error as URLError:
            return "URLError \(error.code.rawValue)" + (error.failingURL.map { " for \(url($0))" } ?? "")
        case EncodingError.invalidValue(let value, let context):
            return "a value of type \(type(of: value)) cannot be encoded at \(context.codingPath.map(\.stringValue))"
                + ": \(context.debugDescription)"
        case let error as DecodingError:
            return decodingDescription(error)
        default:
            return (error as? LocalizedError)?.errorDescription ?? String(describing: error)
        }
    }

    /// A `DecodingError` by its kind and the path of keys where it happened, with the decoder's own
    /// explanation only when no key on that path is a sensitive body field: the explanation can
    /// quote the value that failed (an enum's raw value, a number too large for its type).
    private func decodingDescription(_ error: DecodingError) -> String {
        let (kind, context): (String, DecodingError.Context?) =
            switch error {
            case .typeMismatch(let type, let context): ("typeMismatch(\(type))", context)
            case .valueNotFound(let type, let context): ("valueNotFound(\(type))", context)
            case .keyNotFound(let key, let context): ("keyNotFound(\"\(key.stringValue)\")", context)
            case .dataCorrupted(let context): ("dataCorrupted", context)
            @unknown default: ("\(type(of: error))", nil)
            }
        guard let context else { return "DecodingError.\(kind)" }
        let path = context.codingPath.map(\.stringValue)
        let place = path.isEmpty ? "at the top level" : "at \(path.joined(separator: "."))"
        guard !context.codingPath.contains(where: { bodyFields.matches($0.stringValue) }) else {
            return "DecodingError.\(kind) \(place): \(Self.placeholder)"
        }
        return "DecodingError.\(kind) \(place): \(context.debugDescription)"
    }

    /// The request as it may be handed on to code that keeps or forwards it (the metrics hook):
    /// sensitive header values, userinfo, query items and body fields redacted. A JSON body that was
    /// never encoded and a multipart form are left out, since their fields are not known, and so is
    /// a stream, which only the transport may read.
    func request(_ request: NetworkRequest) -> NetworkRequest {
        var redacted = request
        redacted.headers = headers(request.headers)
        if let url = redactedURL(request.url) {
            redacted.url = url
        } else {
            // Not reached for a URL that parsed once; still, the original must not be passed on.
            redacted.url = URL(string: "about:blank")!
        }
        redacted.queryItems = request.queryItems.map { item in
            queryParameters.matches(item.name) ? URLQueryItem(name: item.name, value: Self.placeholder) : item
        }
        switch request.body?.content {
        case .data(let data, let contentType)?:
            let type = request.headers["Content-Type"] ?? contentType
            redacted.body = .data(body(data, contentType: type), contentType: contentType)
        case .form(let fields)?:
            redacted.body = .form(
                fields.map { bodyFields.matches($0.name) ? URLQueryItem(name: $0.name, value: Self.placeholder) : $0 })
        case .text(let text, let contentType)?:
            let text = String(decoding: body(Data(text.utf8), contentType: contentType), as: UTF8.self)
            redacted.body = .text(text, contentType: contentType)
        case .json?, .multipart?, .stream?:
            // A multipart form's fields are not redacted one by one, and a stream must be left
            // for the transport to read.
            redacted.body = nil
        case .file?:
            break
        case nil:
            break
        }
        return redacted
    }

    /// See ``SensitiveData/carriesCredentials(_:)``.
    func carriesCredentials(_ request: NetworkRequest) -> Bool {
        if request.headers.contains(where: { headers.matches($0.name) }) { return true }
        if request.url.user != nil || request.url.password != nil { return true }
        if request.queryItems.contains(where: { queryParameters.matches($0.name) }) { return true }
        // Redaction changes the URL exactly when it has a sensitive query or fragment parameter.
        let text = request.url.absoluteString
        return urlText(text) != text
    }

    /// Whether ``urlText(_:placeholder:)`` may change `text`. `false` only for ASCII text, where a
    /// byte is a character as the redaction compares them, with no userinfo and no query or
    /// fragment parameter whose name is sensitive or percent-encoded (which only the full
    /// redaction decodes).
    private func mayRedact(urlText text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return true }
            let fragmentStart = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
            let queryStart = bytes[..<fragmentStart].firstIndex(of: UInt8(ascii: "?")) ?? fragmentStart
            let query = bytes[min(queryStart + 1, fragmentStart)..<fragmentStart]
            let fragment = bytes[min(fragmentStart + 1, bytes.endIndex)...]
            return Self.hasUserinfo(bytes[..<queryStart])
                || Self.mayHaveSensitivePair(query, names: queryParameters)
                || Self.mayHaveSensitivePair(fragment, names: queryParameters)
        }
    }

    /// Whether the bytes before a URL's query have an `@` in their authority, as
    /// ``withoutUserinfo(_:placeholder:)`` looks for it.
    private static func hasUserinfo(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var index = bytes.startIndex
        while index + 2 < bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/")
                && bytes[index + 2] == UInt8(ascii: "/")
            {
                let authority = bytes[(index + 3)...]
                let authorityEnd = authority.firstIndex(of: UInt8(ascii: "/")) ?? authority.endIndex
                return authority[..<authorityEnd].contains(UInt8(ascii: "@"))
            }
            index += 1
        }
        return false
    }

    /// Whether ``redactPairs(_:names:placeholder:)`` may change these bytes: a `name=value` pair
    /// whose name is in `names` or is percent-encoded.
    private static func mayHaveSensitivePair(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, names: SensitiveNames) -> Bool
    {
        guard !names.isEmpty, bytes.contains(UInt8(ascii: "=")) else { return false }
        // Both readings of ``redactPairs(_:names:placeholder:)``: pairs split at `&`, and at `;` too.
        let byAmpersand = bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
        let bySemicolonToo =
            bytes.contains(UInt8(ascii: ";"))
            ? bytes.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") }
            : []
        for pair in byAmpersand + bySemicolonToo {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = pair[..<equals]
            if name.contains(UInt8(ascii: "%")) || names.matches(bytes: name) { return true }
        }
        return false
    }

    /// Whether `text`, lower-cased, contains `needle`, which is lower-case ASCII: compared byte by
    /// byte, folding ASCII letters, when `text` is ASCII (as media types are), which builds no copy.
    private static func contains(_ text: String, lowercased needle: StaticString) -> Bool {
        var text = text
        let found = text.withUTF8 { haystack -> Bool? in
            guard !haystack.contains(where: { $0 >= 0x80 }) else { return nil }
            return needle.withUTF8Buffer { pattern in
                guard haystack.count >= pattern.count else { return false }
                return (0...(haystack.count - pattern.count)).contains { start in
                    pattern.indices.allSatisfy { haystack[start + $0].asciiLowercased == pattern[$0] }
                }
            }
        }
        return found ?? text.lowercased().contains(needle.description)
    }

    /// Text of the Unicode scalars of a string, searched scalar by scalar; see ``urlText(_:placeholder:)``.
    private typealias Scalars = Substring.UnicodeScalarView

    /// The part of a URL before its query, with any userinfo replaced.
    private static func withoutUserinfo(_ text: Scalars, placeholder: String) -> String {
        guard let schemeEnd = text.firstRange(of: "://".unicodeScalars)?.upperBound else { return string(text) }
        let authorityEnd = text[schemeEnd...].firstIndex(of: "/") ?? text.endIndex
        guard let at = text[schemeEnd..<authorityEnd].lastIndex(of: "@") else { return string(text) }
        return string(text[..<schemeEnd]) + placeholder + string(text[at...])
    }

    /// Replaces the value of each `name=value` pair whose percent-decoded name is in `names`, as
    /// pairs split at `&` read, and as pairs split at `;` too read: some servers still take `;` for
    /// a separator (the HTML 4 recommendation, Java servlet containers, older PHP and Python), so a
    /// token after a `;` is a token to them, while to the others `id_to;ken` is one name.
    private static func redactPairs(_ text: Scalars, names: SensitiveNames, placeholder: String) -> String {
        guard !names.isEmpty, text.contains("=") else { return string(text) }
        return
            text
            .split(separator: "&", omittingEmptySubsequences: false)
            .map { redactedPair($0, names: names, placeholder: placeholder) }
            .joined(separator: "&")
    }

    /// `pair` with its value replaced when its name is sensitive; otherwise, unless `pair` is
    /// already a part of one, its `;`-separated parts each judged alike.
    private static func redactedPair(
        _ pair: Scalars, names: SensitiveNames, placeholder: String, isPart: Bool = false
    ) -> String {
        if let equals = pair.firstIndex(of: "=") {
            let name = string(pair[..<equals])
            if names.matches(name.removingPercentEncoding ?? name) { return name + "=" + placeholder }
        }
        guard !isPart, pair.contains(";") else { return string(pair) }
        return
            pair
            .split(separator: ";", omittingEmptySubsequences: false)
            .map { redactedPair($0, names: names, placeholder: placeholder, isPart: true) }
            .joined(separator: ";")
    }

    private static func string(_ scalars: Scalars) -> String {
        String(Substring(scalars))
    }
}
