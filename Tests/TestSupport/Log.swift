import Foundation

/// A thread-safe list, for what actions, sinks and completion handlers saw from other threads.
public final class Log<Element: Sendable>: @unchecked Sendable {
    // Safe because `elements` is only touched while `lock` is held.
    private let lock = NSLock()
    private var elements: [Element] = []

    /// Creates an empty log.
    public init() {}

    /// Adds an element at the end.
    public func append(_ element: Element) {
        lock.withLock { elements.append(element) }
    }

    /// Every element, in the order appended.
    public var all: [Element] {
        lock.withLock { elements }
    }
}

/// A log of named events, for tests that check the order of stages.
public typealias EventLog = Log<String>
