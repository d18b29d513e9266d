import Foundation

/// Lines written from any thread, such as the tour's output.
final class LineCollector: @unchecked Sendable {
    // `@unchecked` because the compiler cannot see the lock; `storage` is only touched under it.
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ line: String) {
        lock.withLock { storage.append(line) }
    }

    var lines: [String] {
        lock.withLock { storage }
    }
}
