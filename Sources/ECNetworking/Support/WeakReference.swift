import Foundation

/// A weak reference that several threads can set and read.
final class WeakReference<Object: AnyObject & Sendable>: @unchecked Sendable {
    // Safe because `object` is only touched while `lock` is held.
    private let lock = NSLock()
    private weak var object: Object?

    init() {}

    func set(_ object: Object) {
        lock.withLock { self.object = object }
    }

    func get() -> Object? {
        lock.withLock { object }
    }
}
