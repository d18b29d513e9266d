import Foundation

/// A counter several tasks can bump.
public final class Counter: @unchecked Sendable {
    // Safe because `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value = 0

    /// Creates a counter at zero.
    public init() {}

    /// Adds one and returns the new count.
    @discardableResult
    public func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }

    /// The current count.
    public var count: Int {
        lock.withLock { value }
    }
}
