/// A decoded response and where it came from: what a send through a ``ResponseStore`` returns.
public struct StoredValue<Value: Sendable>: Sendable {
    /// The decoded response.
    public var value: Value
    /// Whether the network or the store answered.
    public var source: ResponseSource
    /// How long ago the response was stored; zero when ``source`` is ``ResponseSource/network``.
    public var age: Duration

    /// Creates a value; `age` defaults to zero, which is right for a network answer.
    public init(value: Value, source: ResponseSource, age: Duration = .zero) {
        self.value = value
        self.source = source
        self.age = age
    }
}

extension StoredValue: Equatable where Value: Equatable {}
