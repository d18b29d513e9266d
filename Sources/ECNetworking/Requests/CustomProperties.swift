import Foundation

/// Extra information that travels with a request through every action, for example whether it
/// needs authentication.
///
/// It has a dictionary's shape (`["requiresAuthentication": true]`, read back with
/// `customProperties["requiresAuthentication"] as? Bool`) and adds typed keys
/// (`customProperties[RequiresAuthentication.self]`) whose values need no casts. Every value is
/// `Sendable`, because requests cross threads.
public struct CustomProperties: Sendable, ExpressibleByDictionaryLiteral {
    enum StorageKey: Hashable, Sendable {
        case name(String)
        case type(ObjectIdentifier)
    }

    private var storage: [StorageKey: any Sendable]
    /// ``NetworkBaseURL``, which the network sets on every send: kept beside the dictionary rather
    /// than in it, so that a request with no properties of its own allocates and hashes nothing for
    /// it. `nil` when absent; `.some(nil)` when set to `nil`.
    private var networkBaseURL: URL?? = nil

    /// Creates an empty set of properties.
    public init() {
        storage = [:]
    }

    /// Creates properties from a dictionary literal with string keys.
    public init(dictionaryLiteral elements: (String, any Sendable)...) {
        // `[:]`, every request's default, builds nothing: mapped and uniqued, it cost each built
        // request a pass through the dictionary's generic initializer.
        guard !elements.isEmpty else {
            storage = [:]
            return
        }
        storage = Dictionary(elements.map { (StorageKey.name($0.0), $0.1) }, uniquingKeysWith: { $1 })
    }

    /// Creates properties from a dictionary with string keys.
    public init(_ dictionary: [String: any Sendable]) {
        storage = Dictionary(uniqueKeysWithValues: dictionary.map { (StorageKey.name($0.key), $0.value) })
    }

    /// The value stored under a string key, or `nil`.
    public subscript(name: String) -> (any Sendable)? {
        get { storage[.name(name)] }
        set { storage[.name(name)] = newValue }
    }

    /// The value stored under a typed key, or the key's default value.
    public subscript<K: CustomPropertyKey>(key: K.Type) -> K.Value {
        get {
            if key == NetworkBaseURL.self {
                guard let networkBaseURL else { return K.defaultValue }
                return Self.identical(networkBaseURL, as: K.Value.self)
            }
            // Most requests carry no properties of their own: then nothing is hashed or cast.
            guard !storage.isEmpty else { return K.defaultValue }
            return storage[.type(ObjectIdentifier(key))] as? K.Value ?? K.defaultValue
        }
        set {
            if key == NetworkBaseURL.self {
                networkBaseURL = .some(Self.identical(newValue, as: URL?.self))
            } else {
                storage[.type(ObjectIdentifier(key))] = newValue
            }
        }
    }

    /// `value` as `Target`, which is the type it has: for ``NetworkBaseURL``'s value, which is
    /// `URL?` once the key is known to be ``NetworkBaseURL``, where a cast between the generic
    /// and the concrete type goes through the runtime on every send.
    private static func identical<Value, Target>(_ value: Value, as target: Target.Type) -> Target {
        precondition(Value.self == Target.self, "NetworkBaseURL's value is a URL?")
        return unsafeBitCast(value, to: Target.self)
    }

    /// Whether a value was set for a typed key (as opposed to its default being read).
    public func contains<K: CustomPropertyKey>(_ key: K.Type) -> Bool {
        key == NetworkBaseURL.self ? networkBaseURL != nil : storage[.type(ObjectIdentifier(key))] != nil
    }

    /// Whether there are no properties.
    public var isEmpty: Bool { storage.isEmpty && networkBaseURL == nil }

    /// The number of properties.
    public var count: Int { storage.count + (networkBaseURL == nil ? 0 : 1) }

    /// Copies every property of `other` into these, replacing values under the same key.
    public mutating func merge(_ other: CustomProperties) {
        if let otherBaseURL = other.networkBaseURL { networkBaseURL = otherBaseURL }
        guard !other.storage.isEmpty else { return }
        storage.merge(other.storage) { _, new in new }
    }
}
