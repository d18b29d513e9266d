import Foundation

/// Collects ``StageEvent``s from any thread, for assertions and for measuring retry delays.
///
/// ```swift
/// let log = StageEventLog()
/// let client = DemoClient(baseURL: url, stageObserver: log.append)
/// ```
public final class StageEventLog: @unchecked Sendable {
    // `@unchecked` because the compiler cannot see the lock; it is safe because `storage` is only
    // read or written while `lock` is held. (`Mutex` would need macOS 15; this package targets 14.)
    private let lock = NSLock()
    private var storage: [StageEvent] = []

    /// Creates an empty log.
    public init() {}

    /// Adds `event`; this is the method to pass as a client's stage observer.
    public func append(_ event: StageEvent) {
        lock.withLock { storage.append(event) }
    }

    /// Every event so far, in the order they were appended.
    public var events: [StageEvent] {
        lock.withLock { storage }
    }

    /// The events of requests to `path` (without query), in order.
    public func events(path: String) -> [StageEvent] {
        events.filter { $0.path == path }
    }

    /// For each retry of a request to `path`, the time from the `completed` stage of the failed
    /// attempt to the `will-begin` stage of the next: the delay the retry actually waited.
    ///
    /// Meant for one request to `path` at a time; concurrent ones would interleave.
    public func retryDelays(path: String) -> [Duration] {
        var delays: [Duration] = []
        var lastCompletion: ContinuousClock.Instant?
        for event in events(path: path) {
            switch event.stage {
            case .completed:
                lastCompletion = event.instant
            case .willBegin:
                if let completion = lastCompletion { delays.append(event.instant - completion) }
                lastCompletion = nil
            case .began, .responseBegan:
                break
            }
        }
        return delays
    }

    /// Forgets every event, so the next step starts with an empty log.
    public func removeAll() {
        lock.withLock { storage.removeAll() }
    }
}
