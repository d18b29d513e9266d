import ECNetworking

/// 10,000 sends queued behind one that holds the only slot (`maximumConcurrentRequests = 1`),
/// then cancelled together: the time until every one of them has ended with `NetworkError.cancelled`.
struct CancellationRun {
    /// How the queued sends are cancelled.
    enum Method: Sendable {
        /// `URLSessionNetwork.cancelAll(of:)`, the library's bulk cancellation.
        case network
        /// Cancelling the tasks that called `send` (`Task.cancel()` on each), the same path without
        /// the library's registry, to tell the registry's cost from the rest.
        case tasks
    }

    /// What the run saw.
    struct Figures: Sendable {
        /// From `cancelAll(of:)` until the last queued send had ended.
        var elapsed: Duration
        /// CPU time the process used meanwhile, in nanoseconds.
        var cpuNanoseconds: Double
        /// How long the cancelling call itself took, before the sends had ended.
        var callDuration: Duration
        /// Queued sends that ended with `NetworkError.cancelled`.
        var cancelled: Int
        /// Queued sends that ended any other way (a broken promise).
        var otherEndings: Int
        /// Whether the blocking send, cancelled afterwards, ended with `NetworkError.cancelled` too.
        var blockerCancelled: Bool
        /// Session tasks started: only the blocker may have reached the session.
        var started: Int
    }

    /// The queued sends.
    var count = 10_000
    /// How they are cancelled.
    var method = Method.network

    /// Queues the sends behind the blocker, cancels them, and reports how they ended.
    func run() async throws -> Figures {
        let session = DelayedSession(
            url: InMemoryEndpoint.baseURL, body: UsersFixture.body, delay: .milliseconds(1))
        var configuration = NetworkConfiguration(baseURL: InMemoryEndpoint.baseURL)
        configuration.maximumConcurrentRequests = 1
        let network = URLSessionNetwork(configuration: configuration, session: session)

        let blocker = Task { try await network.send(BlockingRequest()) }
        while session.inFlight < 1 { try await Task.sleep(for: .milliseconds(1)) }

        // Unstructured tasks rather than a task group: the runtime removes a finished child from
        // its group by walking the group's list of children, so 10,000 children that end in
        // another order than the list's cost O(n²) in the runtime (seen under callgrind in
        // `TaskGroup::removeChildTask`, 4× the CPU of the rest), which would be charged to the library.
        let sends = (0..<count).map { _ in
            Task {
                do {
                    _ = try await network.send(ListUsersRequest())
                    return false
                } catch let error as NetworkError {
                    return error.isCancellation
                } catch {
                    return false
                }
            }
        }
        // Every send registers itself before it queues; the pause lets the last ones reach the
        // queue, so the timing below covers cancelling queued sends, not starting them.
        while network.activeRequestCount < count + 1 { try await Task.sleep(for: .milliseconds(1)) }
        try await Task.sleep(for: .milliseconds(100))

        let clock = ContinuousClock()
        let cpuStart = CPUTime.now()
        let start = clock.now
        switch method {
        case .network: network.cancelAll(of: ListUsersRequest.self)
        case .tasks: for send in sends { send.cancel() }
        }
        let callDuration = clock.now - start
        var cancelled = 0
        for send in sends where await send.value { cancelled += 1 }
        let elapsed = clock.now - start
        let cpuNanoseconds = CPUTime.now() - cpuStart

        network.cancelAll()
        let blockerCancelled: Bool
        switch await blocker.result {
        case .failure(let error as NetworkError): blockerCancelled = error.isCancellation
        default: blockerCancelled = false
        }
        return Figures(
            elapsed: elapsed,
            cpuNanoseconds: cpuNanoseconds,
            callDuration: callDuration,
            cancelled: cancelled,
            otherEndings: count - cancelled,
            blockerCancelled: blockerCancelled,
            started: session.started
        )
    }
}
