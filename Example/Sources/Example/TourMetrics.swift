import Foundation
import Metrics

/// A tiny in-process swift-metrics backend for the tour: it keeps every timer value with its
/// label and dimensions, so a step can print what the library measured. Counters, meters and
/// recorders are accepted and dropped; the tour shows only the request duration.
final class TourMetrics: MetricsFactory, @unchecked Sendable {
    /// One value a timer recorded.
    struct TimerValue: Sendable {
        let label: String
        let dimensions: [(String, String)]
        let duration: Duration
    }

    // `@unchecked Sendable` is safe: `values` is only read or written while `lock` is held.
    // (`Mutex` would need macOS 15; this package targets 14.)
    private let lock = NSLock()
    private var values: [TimerValue] = []

    /// The values timers named `label` recorded since the last ``removeAll()``, oldest first.
    func timerValues(label: String) -> [TimerValue] {
        lock.withLock { values.filter { $0.label == label } }
    }

    /// Forgets every value recorded so far.
    func removeAll() {
        lock.withLock { values.removeAll() }
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        DurationTimer(label: label, dimensions: dimensions, metrics: self)
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        Dropped()
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        Dropped()
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    private func record(_ value: TimerValue) {
        lock.withLock { values.append(value) }
    }

    private final class DurationTimer: TimerHandler, Sendable {
        let label: String
        let dimensions: [(String, String)]
        let metrics: TourMetrics

        init(label: String, dimensions: [(String, String)], metrics: TourMetrics) {
            self.label = label
            self.dimensions = dimensions
            self.metrics = metrics
        }

        func recordNanoseconds(_ duration: Int64) {
            metrics.record(TimerValue(label: label, dimensions: dimensions, duration: .nanoseconds(duration)))
        }
    }

    private final class Dropped: CounterHandler, RecorderHandler, Sendable {
        func increment(by amount: Int64) {}
        func reset() {}
        func record(_ value: Int64) {}
        func record(_ value: Double) {}
    }
}
