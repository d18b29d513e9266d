import ECNetworking

/// 10,000 sends at once behind `maximumConcurrentRequests = 64`, through a session answering after
/// 1 ms, so nearly all of them queue. The session counts what is on the wire; more than 64 at any
/// moment breaks the limit's promise.
struct ConcurrencyLimitRun {
    /// What the run saw.
    struct Figures: Sendable {
        /// From the first send started to the last one ended.
        var elapsed: Duration
        /// The most session tasks running at once.
        var maximumInFlight: Int
        /// Sends that did not return the users list.
        var failures: Int
        /// Session tasks started (each send must reach the session once).
        var started: Int
    }

    /// The sends.
    var count = 10_000
    /// The configured limit.
    var limit = 64

    /// Starts every send at once and waits for all of them.
    func run() async -> Figures {
        let session = DelayedSession(
            url: InMemoryEndpoint.baseURL, body: UsersFixture.body, delay: .milliseconds(1))
        var configuration = NetworkConfiguration(baseURL: InMemoryEndpoint.baseURL)
        configuration.maximumConcurrentRequests = limit
        // Identical GETs on the wire would otherwise share one session task, and the session
        // would see fewer tasks than there are sends.
        configuration.coalescesIdenticalRequests = false
        let network = URLSessionNetwork(configuration: configuration, session: session)

        let clock = ContinuousClock()
        let start = clock.now
        // Unstructured tasks, not a task group: see CancellationRun for the runtime's O(n²) removal
        // of finished children from a group, which would dominate this figure.
        let sends = (0..<count).map { _ in
            Task {
                do {
                    try UsersFixture.check(try await network.send(ListUsersRequest()))
                    return true
                } catch {
                    return false
                }
            }
        }
        var failures = 0
        for send in sends where await !send.value { failures += 1 }
        return Figures(
            elapsed: clock.now - start,
            maximumInFlight: session.maximumInFlight,
            failures: failures,
            started: session.started
        )
    }
}
