import Foundation

/// Hides secrets in what is logged: header values and query parameter values by name.
struct Redaction: Sendable {
    static let placeholder = "<redacted>"

    private let headers: [String]
    private let queryParameters: [String]

    init(options: LoggingOptions) {
        headers = Array(options.redactedHeaders)
        queryParameters = Array(options.redactedQueryParameters)
    }

    func headerValue(name: String, value: String) -> String {
        headers.contains { $0.equalsIgnoringASCIICase(name) } ? Self.placeholder : value
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
        let redacted =
            query
            .split(separator: "&", omittingEmptySubsequences: false)
            .map { pair -> String in
                let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let decodedName = name.removingPercentEncoding ?? name
                guard queryParameters.contains(where: { $0.equalsIgnoringASCIICase(decodedName) }) else {
                    return String(pair)
                }
                return name + "=" + Self.placeholder
            }
            .joined(separator: "&")
        return text[..<queryStart] + "?" + redacted + text[fragmentStart...]
    }
}
