/// Stops a refresh loop against a server that rejects every new credential: counts the refreshed
/// credentials that turned out unusable within a sliding window, and refuses a refresh once there
/// are `maximum` of them.
///
/// Only an unusable new credential counts: one the server rejected, or one
/// ``Authenticator/needsRefresh(_:)`` already found due. A refresh that failed (the device is
/// offline, the login server is down) produced nothing to reject, so it does not count, and a
/// spell offline never locks authenticated requests out.
struct RefreshLimiter: Sendable {
    private let maximum: Int
    private let window: Duration
    /// The time since the clock's origin; any `Clock` can drive it, so a test need not wait.
    private let elapsed: @Sendable () -> Duration
    /// When each unusable credential was found, oldest first.
    private var unusable: [Duration] = []

    init<C: Clock>(maximum: Int, window: Duration, clock: C) where C.Duration == Duration {
        self.maximum = maximum
        self.window = window
        let origin = clock.now
        self.elapsed = { origin.duration(to: clock.now) }
    }

    /// Counts one refreshed credential found unusable now.
    mutating func noteUnusableCredential() {
        unusable.append(elapsed())
    }

    /// Forgets every count, for a new user.
    mutating func reset() {
        unusable.removeAll()
    }

    /// - Throws: ``AuthenticationError/excessiveRefresh(count:window:)`` when `maximum` refreshed
    ///   credentials turned out unusable within the window.
    mutating func checkRefreshAllowed() throws {
        let now = elapsed()
        unusable.removeAll { now - $0 >= window }
        guard unusable.count < maximum else {
            throw AuthenticationError.excessiveRefresh(count: unusable.count, window: window)
        }
    }
}
