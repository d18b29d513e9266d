import ECNetworking
import Foundation

/// One request passing one action stage, as ``StageTracer`` saw it.
///
/// Its description is the line the tracer prints, such as `[response-began] 200 GET /users`.
public struct StageEvent: Sendable, CustomStringConvertible {
    /// The four stages, in the order one attempt passes them.
    public enum Stage: String, Sendable, CaseIterable {
        /// Before sending; actions may still change the request.
        case willBegin = "will-begin"
        /// The request was handed to the transport.
        case began
        /// A response arrived.
        case responseBegan = "response-began"
        /// The response is complete; actions may replace it or ask for a retry.
        case completed
    }

    /// The stage the request passed.
    public let stage: Stage
    /// The method, such as `GET`.
    public let method: String
    /// The path and query, such as `/users?online=true`.
    public let target: String
    /// The response status, from `response-began` on.
    public let statusCode: Int?
    /// The headers the request carried at this stage, as the actions before the tracer left them.
    public let headers: HTTPHeaders
    /// When the stage was reached, for measuring the gaps between stages.
    public let instant: ContinuousClock.Instant

    /// Creates an event for `request` at `stage`, with the status of `response` if there is one.
    public init(stage: Stage, request: NetworkRequest, response: NetworkResponse? = nil) {
        self.stage = stage
        self.method = request.method.rawValue
        // Before the wire the query is still in `queryItems`; `urlWithQuery()` shows it as it will go out.
        self.target = Self.target(of: (try? request.urlWithQuery()) ?? request.url)
        self.statusCode = response?.statusCode
        self.headers = request.headers
        self.instant = ContinuousClock.now
    }

    /// The path without the query, for picking one endpoint's events.
    public var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The tracer's line, such as `[began] GET /users?online=true` or `[completed] 503 GET /flaky`.
    public var description: String {
        let status = statusCode.map { "\($0) " } ?? ""
        return "[\(stage.rawValue)] \(status)\(method) \(target)"
    }

    private static func target(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.path
        }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }
}
