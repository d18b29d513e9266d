extension HTTPHeaders: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The fields in order, as `["Accept": "application/json", "Authorization": "<redacted>"]`:
    /// the values of sensitive headers (see ``SensitiveData``) are redacted.
    public var description: String {
        "[" + fields.map(\.quoted).joined(separator: ", ") + "]"
    }

    /// The ``description`` with the type's name.
    public var debugDescription: String {
        "HTTPHeaders(\(description))"
    }

    /// The fields, each through its redacting mirror, for `dump`.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: fields, displayStyle: .collection)
    }
}

extension HTTPHeaders.Field: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `Name: value`, with the value of a sensitive header (see ``SensitiveData``) redacted.
    public var description: String {
        "\(name): \(shownValue)"
    }

    /// The ``description`` with the type's name.
    public var debugDescription: String {
        "HTTPHeaders.Field(\(description))"
    }

    /// The name and the redacted value, for `dump`.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "value": shownValue], displayStyle: .struct)
    }

    private var shownValue: String {
        Redaction.forDescriptions.headerValue(name: name, value: value)
    }

    /// The field as a dictionary literal's entry, quoted and escaped.
    fileprivate var quoted: String {
        "\(String(reflecting: name)): \(String(reflecting: shownValue))"
    }
}
