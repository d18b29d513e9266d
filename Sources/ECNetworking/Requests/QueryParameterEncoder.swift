import Foundation

/// Turns a dictionary of parameters into query items, for APIs whose query shape differs
/// (arrays as `tag=a&tag=b` or `tag[]=a`, booleans as `true` or `1`).
///
/// Write your own to match any API:
/// ```swift
/// struct CommaSeparatedEncoder: QueryParameterEncoder {
///     func queryItems(for parameters: [String: any Sendable]) throws -> [URLQueryItem] {
///         parameters.keys.sorted().map { key in
///             let value = parameters[key]!
///             let text = (value as? [String])?.joined(separator: ",") ?? "\(value)"
///             return URLQueryItem(name: key, value: text)
///         }
///     }
/// }
/// ```
public protocol QueryParameterEncoder: Sendable {
    /// Returns the query items for `parameters`, in a deterministic order.
    func queryItems(for parameters: [String: any Sendable]) throws -> [URLQueryItem]
}

/// The built-in ``QueryParameterEncoder``: keys sorted, arrays and booleans encoded as configured,
/// `nil` optionals left out, everything else written with its description.
public struct DefaultQueryParameterEncoder: QueryParameterEncoder {
    /// How an array value is written.
    public enum ArrayEncoding: Sendable {
        /// `tag=a&tag=b`
        case repeatedKey
        /// `tag[]=a&tag[]=b`
        case brackets
        /// `tag=a,b`
        case commaSeparated
    }

    /// How a Boolean value is written.
    public enum BoolEncoding: Sendable {
        /// `true` / `false`
        case literal
        /// `1` / `0`
        case numeric
    }

    /// How arrays are written; `.repeatedKey` by default.
    public var arrayEncoding: ArrayEncoding
    /// How Booleans are written; `.literal` by default.
    public var boolEncoding: BoolEncoding

    /// Creates an encoder.
    public init(arrayEncoding: ArrayEncoding = .repeatedKey, boolEncoding: BoolEncoding = .literal) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// Returns one item per scalar value and per array element, keys in ascending order.
    public func queryItems(for parameters: [String: any Sendable]) throws -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        for key in parameters.keys.sorted() {
            guard let value = unwrap(parameters[key]!) else { continue }
            if let array = value as? [Any] {
                let texts = array.compactMap(unwrap).map(text)
                switch arrayEncoding {
                case .repeatedKey: items += texts.map { URLQueryItem(name: key, value: $0) }
                case .brackets: items += texts.map { URLQueryItem(name: key + "[]", value: $0) }
                case .commaSeparated: items.append(URLQueryItem(name: key, value: texts.joined(separator: ",")))
                }
            } else {
                items.append(URLQueryItem(name: key, value: text(value)))
            }
        }
        return items
    }

    private func text(_ value: Any) -> String {
        if let bool = value as? Bool {
            switch boolEncoding {
            case .literal: return bool ? "true" : "false"
            case .numeric: return bool ? "1" : "0"
            }
        }
        return "\(value)"
    }

    private func unwrap(_ value: Any) -> Any? {
        // An Optional arrives boxed in the existential; `nil` means "leave the parameter out".
        if let optional = value as? any OptionalProtocol { return optional.wrappedAny }
        return value
    }
}

private protocol OptionalProtocol {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalProtocol {
    fileprivate var wrappedAny: Any? { self.map { $0 } }
}
