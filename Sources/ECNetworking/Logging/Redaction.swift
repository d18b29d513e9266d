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
    func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let query = components.percentEncodedQuery, !query.isEmpty
        else { return url.absoluteString }
        components.percentEncodedQuery =
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
        return components.string ?? url.absoluteString
    }
}
