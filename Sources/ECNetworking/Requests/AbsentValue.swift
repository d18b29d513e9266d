/// Recognises an `Optional` that holds no value behind a generic parameter, where `== nil` cannot
/// be written: a `body: Encodable?` that is `nil` sends nothing, and a model passed as
/// `some Encodable` here may be such an `Optional`.
protocol AbsentValue {
    /// Whether there is no value, looking through nested optionals (`.some(nil)` encodes as `null` too).
    var isAbsent: Bool { get }
}

extension Optional: AbsentValue {
    var isAbsent: Bool {
        switch self {
        case .none: true
        case .some(let wrapped): (wrapped as? any AbsentValue)?.isAbsent ?? false
        }
    }
}

extension RequestBody {
    /// A JSON body for `value`, or no body when `value` is an `Optional` holding nothing.
    static func jsonUnlessAbsent(_ value: some Encodable & Sendable) -> RequestBody? {
        if let optional = value as? any AbsentValue, optional.isAbsent { return nil }
        return .json(value)
    }
}
