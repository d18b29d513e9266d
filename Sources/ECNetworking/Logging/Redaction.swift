import Foundation

/// Hides secrets in what is logged: header values, query parameter values, and the values of
/// named fields in JSON and form bodies.
struct Redaction: Sendable {
    static let placeholder = "<redacted>"

    private let headers: [String]
    private let queryParameters: [String]
    private let bodyFields: [String]
    /// The body field names as lowercase bytes, for the search that decides whether to parse.
    private let lowercasedBodyFields: [[UInt8]]

    init(options: LoggingOptions) {
        headers = Array(options.redactedHeaders)
        queryParameters = Array(options.redactedQueryParameters)
        bodyFields = Array(options.redactedBodyFields)
        lowercasedBodyFields = bodyFields.map { Self.lowercasedBytes($0.utf8) }.filter { !$0.isEmpty }
    }

    func headerValue(name: String, value: String) -> String {
        Self.matches(name, headers) ? Self.placeholder : value
    }

    /// The URL as text with the values of redacted query parameters replaced.
    ///
    /// Built as text: `URLComponents` stops the process when given a query with `<` or `>`, and
    /// this line is for people and shells, not for sending.
    func url(_ url: URL) -> String {
        let text = url.absoluteString
        guard let queryStart = text.firstIndex(of: "?") else { return text }
        let fragmentStart = text[queryStart...].firstIndex(of: "#") ?? text.endIndex
        let query = text[text.index(after: queryStart)..<fragmentStart]
        return text[..<queryStart] + "?" + Self.redactPairs(query, names: queryParameters) + text[fragmentStart...]
    }

    /// The body with the values of redacted fields replaced, for JSON and form bodies; any other
    /// body as it is.
    func body(_ data: Data, contentType: String?) -> Data {
        guard !bodyFields.isEmpty, !data.isEmpty else { return data }
        let type = Self.lowercasedBytes((contentType ?? "").utf8)
        if Self.contains(type, Array("x-www-form-urlencoded".utf8)) {
            let text = String(decoding: data, as: UTF8.self)
            return Data(Self.redactPairs(Substring(text), names: bodyFields).utf8)
        }
        let looksLikeJSON =
            Self.contains(type, Array("json".utf8)) || data.first == UInt8(ascii: "{")
            || data.first == UInt8(ascii: "[")
        guard looksLikeJSON, let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return data }
        let redacted = redactJSON(object)
        return (try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed]))
            ?? data
    }

    /// Whether any redacted field name occurs in the bytes, ignoring ASCII case. It may say yes
    /// for a name inside a value, which only costs a parse; it never says no for a present key.
    private func mentionsBodyField(_ data: Data) -> Bool {
        let lowered = Self.lowercasedBytes(data)
        return lowercasedBodyFields.contains { Self.contains(lowered, $0) }
    }

    private static func lowercasedBytes(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }
    }

    /// A plain byte search: Foundation's `String.contains` goes through `NSString` on Linux.
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    private func redactJSON(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, field) in object {
                result[key] = Self.matches(key, bodyFields) ? Self.placeholder : redactJSON(field)
            }
            return result
        }
        if let array = value as? [Any] { return array.map(redactJSON) }
        return value
    }

    /// Replaces the value of each `name=value` pair whose (percent-decoded) name is in `names`.
    private static func redactPairs(_ text: Substring, names: [String]) -> String {
        text
            .split(separator: "&", omittingEmptySubsequences: false)
            .map { pair -> String in
                let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let decodedName = name.removingPercentEncoding ?? name
                return matches(decodedName, names) ? name + "=" + placeholder : String(pair)
            }
            .joined(separator: "&")
    }

    private static func matches(_ name: String, _ names: [String]) -> Bool {
        names.contains { $0.equalsIgnoringASCIICase(name) }
    }
}
