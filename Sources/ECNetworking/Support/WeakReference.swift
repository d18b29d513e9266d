/// A weak reference that several threads can set and read.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    /// The reference, boxed because a `weak` variable cannot be a lock's value on its own.
    private struct Box: Sendable {
        weak var object: Object?
    }

    private let box = LockedState(Box())

    init() {}

    func set(_ object: Object) {
        box.withLock { $0.object = object }
    }

    func get() -> Object? {
        box.withLock { $0.object }
    }
}
