/// Follows every send of a network from start to end: the one seam for everything that watches
/// sends (the built-in logging, a trace span per send and per physical request, swift-metrics'
/// timers and counters). The ``StageRunner`` tells it; it never changes how a send goes, except
/// for the headers ``SendObservation/attemptWillSend(_:)`` and
/// ``SendObservation/redirectFollowed(statusCode:to:)`` add (trace context).
///
/// The integrations' observers are kept in ``NetworkConfiguration``'s observers, set through their
/// own properties (`tracer`, `metricsFactory`), so every send, typed, raw, through storage or
/// through a `FakeNetwork`, passes by them exactly once; the network adds the logging observer
/// when ``NetworkConfiguration/logging`` is on. The metrics hook and the failure actions, which
/// users supply, are called by the runner at the same end (see `StageRunner.end`).
protocol SendObserver: Sendable {
    /// Called once as a send starts, in the sending task; the observation it returns hears about
    /// that send's attempts and its end.
    func sendStarted(_ request: NetworkRequest, redaction: Redaction) -> any SendObservation

    /// Called when a response store answers without a network call, which is no send, with the
    /// stored answer's age and why the store answered.
    func storedAnswer(_ request: NetworkRequest, age: Duration, reason: String)

    /// Called, once per network, when a storage send goes around the store: `request` carries a
    /// credential and names no partition.
    func storageBypassed(_ request: NetworkRequest)
}

/// One send as a ``SendObserver`` follows it. The runner calls it from the sending task, in
/// order: for each attempt `attemptWillSend`, maybe `attemptOnWire`, then `attemptEnded`; and
/// `sendEnded` exactly once, last, whether the send returned, failed or was cancelled. A
/// `redirectFollowed` for each redirect hop comes from the thread that read it, normally before
/// its attempt ends, but late when the attempt ended first.
protocol SendObservation: Sendable {
    /// The attempt's request, after the will-begin actions and before the wire; the observer may
    /// add headers to it.
    func attemptWillSend(_ request: inout NetworkRequest)
    /// The request went on the wire, or joined an identical request on the wire.
    func attemptOnWire(_ request: NetworkRequest)
    /// Attempt number `attempt`'s request on the wire (or the redirect hop before this one)
    /// answered `statusCode`, a redirect the library follows with `next`, a physical request of
    /// its own. Called from whichever thread read the redirect, possibly after that attempt or
    /// the whole send ended (a deadline passed while the redirect was read): an observation
    /// ignores a hop of an attempt that is not the one in progress. It may add headers to `next`.
    func redirectFollowed(attempt: Int, statusCode: Int, to next: inout TransportRequest)
    /// The attempt ended: with `error` nil it produced `response` (which a completed action may
    /// still have answered with a retry).
    func attemptEnded(response: NetworkResponse?, error: (any Error)?)
    /// The send ended, as the metrics hook sees it.
    func sendEnded(_ metrics: RequestMetrics)
    /// The response head arrived and the response-began actions have seen it.
    func responseArrived(request: NetworkRequest, response: NetworkResponse)
    /// The send started a credential refresh (one refresh, however many sends wait for it).
    func refreshStarted()
    /// Whether the observation needs the send run inside ``withinSend(_:)`` with the observations
    /// bound for ``ObservedSend``; an observation that only listens says `false`, and a send whose
    /// observations all do pays for neither.
    var needsTaskContext: Bool { get }
    /// Runs the whole send, its actions included, in the observer's context: a tracer's send
    /// span is the parent of whatever the actions send (a login inside a refresh).
    // On the sending task's executor: `body` captures the send's `inout` context (see
    // `StageRunner.nest`), which may not be sent to another executor.
    nonisolated(nonsending) func withinSend<Value>(
        _ body: nonisolated(nonsending) () async throws -> Value
    ) async throws -> Value
}

extension SendObserver {
    func storedAnswer(_ request: NetworkRequest, age: Duration, reason: String) {}
    func storageBypassed(_ request: NetworkRequest) {}
}

extension SendObservation {
    func attemptWillSend(_ request: inout NetworkRequest) {}
    func attemptOnWire(_ request: NetworkRequest) {}
    func redirectFollowed(attempt: Int, statusCode: Int, to next: inout TransportRequest) {}
    func attemptEnded(response: NetworkResponse?, error: (any Error)?) {}
    func responseArrived(request: NetworkRequest, response: NetworkResponse) {}
    func refreshStarted() {}
    var needsTaskContext: Bool { true }
    // On the sending task's executor, as the requirement says: `body` holds the `inout` context.
    nonisolated(nonsending) func withinSend<Value>(
        _ body: nonisolated(nonsending) () async throws -> Value
    ) async throws -> Value {
        try await body()
    }
}

/// The observations of the send the current task is running, for the parts of the library that
/// learn something about a send without being handed it: a ``CredentialStore`` starting a refresh.
/// Bound only when a network has observers, so a send without integrations pays nothing.
enum ObservedSend {
    @TaskLocal static var observations: [any SendObservation] = []

    /// Tells the current send's observers that it started a credential refresh.
    static func refreshStarted() {
        for observation in observations {
            observation.refreshStarted()
        }
    }
}

extension NetworkConfiguration {
    /// Replaces the observer of type `Observer` with `observer`, or removes it when `nil`.
    mutating func setObserver<Observer: SendObserver>(_ observer: Observer?) {
        observers.removeAll { $0 is Observer }
        if let observer { observers.append(observer) }
    }

    /// The observer of type `Observer`, if one is set.
    func observer<Observer: SendObserver>(of type: Observer.Type) -> Observer? {
        observers.lazy.compactMap { $0 as? Observer }.first
    }
}

/// Tells a send's observations of each redirect its attempt follows; set on the attempt's
/// ``TransportRequest`` only when the send has observations.
struct ObservedRedirects: RedirectObserver {
    let observations: [any SendObservation]
    /// The attempt whose request follows the redirects.
    let attempt: Int

    func redirectFollowed(statusCode: Int, to next: inout TransportRequest) {
        for observation in observations {
            observation.redirectFollowed(attempt: attempt, statusCode: statusCode, to: &next)
        }
    }
}
