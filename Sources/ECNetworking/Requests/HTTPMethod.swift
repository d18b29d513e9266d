/// An HTTP request method such as `GET` or `POST`.
///
/// The common methods are static members (`.get`, `.post` …); any other method can be
/// written as a string literal or with ``init(rawValue:)``.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method's name as it goes on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its wire name. Names are case-sensitive in HTTP, so this keeps the case.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from a string literal, such as `"PROPFIND"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The method's wire name.
    public var description: String { rawValue }

    /// `GET`: read a resource.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: read a resource's headers only.
    public static let head: HTTPMethod = "HEAD"
    /// `OPTIONS`: ask which methods a resource allows.
    public static let options: HTTPMethod = "OPTIONS"
    /// `PATCH`: change part of a resource.
    public static let patch: HTTPMethod = "PATCH"
    /// `POST`: create a resource or run a command.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace a resource.
    public static let put: HTTPMethod = "PUT"
    /// `DELETE`: remove a resource.
    public static let delete: HTTPMethod = "DELETE"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2),
    /// which is what makes it safe to retry automatically.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .options, .put, .delete, "TRACE": true
        default: false
        }
    }
}
