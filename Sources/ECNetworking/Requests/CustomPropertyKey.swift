/// A typed key for ``CustomProperties``: its value needs no cast and is always `Sendable`.
///
/// ```swift
/// enum RequiresAuthentication: CustomPropertyKey {
///     static let defaultValue = true
/// }
/// request.customProperties[RequiresAuthentication.self] = false
/// ```
public protocol CustomPropertyKey {
    /// The type of the value stored under this key.
    associatedtype Value: Sendable
    /// The value read when none was set.
    static var defaultValue: Value { get }
}
