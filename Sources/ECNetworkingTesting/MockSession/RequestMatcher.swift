import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Decides whether a ``MockSession`` stub answers a request. Combine matchers with `&&`.
///
/// ```swift
/// session.stub(.method(.get) && .path("/users"), with: MockResponse(json: users))
/// ```
public struct RequestMatcher: Sendable, CustomStringConvertible {
    private let predicate: @Sendable (URLRequest) -> Bool
    /// What the matcher checks, for failure messages.
    public let description: String

    /// A matcher from any closure over the `URLRequest`.
    public init(_ description: String = "custom matcher", _ predicate: @escaping @Sendable (URLRequest) -> Bool) {
        self.description = description
        self.predicate = predicate
    }

    /// Whether `request` matches.
    public func matches(_ request: URLRequest) -> Bool {
        predicate(request)
    }

    /// Matches every request.
    public static let any = RequestMatcher("any request") { _ in true }

    /// Matches a method.
    public static func method(_ method: HTTPMethod) -> RequestMatcher {
        RequestMatcher("method \(method)") { ($0.httpMethod ?? "GET") == method.rawValue }
    }

    /// Matches a URL path exactly, such as `"/users/42"`.
    public static func path(_ path: String) -> RequestMatcher {
        RequestMatcher("path \(path)") { $0.url?.path == path }
    }

    /// Matches a URL path that ends with `suffix`, handy when the base URL has a path of its own.
    public static func pathSuffix(_ suffix: String) -> RequestMatcher {
        RequestMatcher("path ending in \(suffix)") { $0.url?.path.hasSuffix(suffix) ?? false }
    }

    /// Matches a query item by name, and by value when one is given.
    public static func queryItem(name: String, value: String? = nil) -> RequestMatcher {
        RequestMatcher("query item \(name)\(value.map { "=\($0)" } ?? "")") { request in
            guard let url = request.url,
                let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems
            else { return false }
            return items.contains { $0.name == name && (value == nil || $0.value == value) }
        }
    }

    /// Matches a header by name (in any case), and by value when one is given.
    public static func header(name: String, value: String? = nil) -> RequestMatcher {
        RequestMatcher("header \(name)\(value.map { ": \($0)" } ?? "")") { request in
            guard let actual = request.value(forHTTPHeaderField: name) else { return false }
            return value == nil || actual == value
        }
    }

    /// Matches when both matchers match.
    public static func && (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
        RequestMatcher("\(lhs.description) and \(rhs.description)") { lhs.matches($0) && rhs.matches($0) }
    }
}
