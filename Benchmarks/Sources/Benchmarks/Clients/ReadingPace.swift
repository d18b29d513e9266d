/// Holds a reader to a rate, as one that does real work with each chunk would be: after each
/// chunk it sleeps until the time at which the bytes read so far are due.
struct ReadingPace {
    /// The rate.
    let bytesPerSecond: Int
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    /// A pace that starts now.
    init(bytesPerSecond: Int) {
        self.bytesPerSecond = bytesPerSecond
        start = clock.now
    }

    /// Sleeps until `byteCount` bytes are due; not at all when they are due within a millisecond,
    /// since a sleep that short overshoots by more than it waits.
    func wait(afterReading byteCount: Int) async throws {
        let due = start + .seconds(Double(byteCount) / Double(bytesPerSecond))
        guard due - clock.now > .milliseconds(1) else { return }
        try await Task.sleep(until: due, clock: clock)
    }
}
