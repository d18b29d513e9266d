internal import Hummingbird

/// Request headers as the server received them, looked up without regard to case.
public struct RecordedHeaders: Sendable, Equatable {
    /// Values keyed by lowercased name, in the order they arrived.
    private let valuesByName: [String: [String]]

    /// Creates headers from name–value pairs; names are compared case-insensitively.
    public init(_ fields: [(name: String, value: String)]) {
        var valuesByName: [String: [String]] = [:]
        for field in fields {
            valuesByName[field.name.lowercased(), default: []].append(field.value)
        }
        self.valuesByName = valuesByName
    }

    init(_ fields: HTTPFields) {
        self.init(fields.map { (name: $0.name.canonicalName, value: $0.value) })
    }

    /// The lowercased names of all headers received.
    public var names: [String] {
        valuesByName.keys.sorted()
    }

    /// The values of header `name`, joined with `", "`, or `nil` when it was not sent.
    public subscript(name: String) -> String? {
        valuesByName[name.lowercased()]?.joined(separator: ", ")
    }

    /// Every value of header `name` in the order received; empty when it was not sent.
    public func values(for name: String) -> [String] {
        valuesByName[name.lowercased()] ?? []
    }

    /// All headers keyed by lowercased name, repeated values joined with `", "`.
    public var joined: [String: String] {
        valuesByName.mapValues { $0.joined(separator: ", ") }
    }
}
