/// Counts `GET /flaky` attempts per `?key=`, so independent tests sharing a server do not disturb each other.
actor FlakyCounter {
    private var attemptsByKey: [String: Int] = [:]

    /// Counts one more attempt for `key` and returns its number, starting at 1.
    func nextAttempt(key: String) -> Int {
        attemptsByKey[key, default: 0] += 1
        return attemptsByKey[key, default: 0]
    }

    /// Forgets the attempts of `key`, or of every key when `key` is `nil`.
    func reset(key: String?) {
        if let key {
            attemptsByKey[key] = nil
        } else {
            attemptsByKey.removeAll()
        }
    }
}
