/// One Server-Sent Events subscription as its network sees it, from its first connection to its
/// end: registered with the network's ``ActiveSendRegistry`` under the request type it was made
/// with, so that `cancelAll(of:)`, `cancelAll()` and invalidation end it wherever it waits (making a
/// connection, reading one, or waiting to reconnect), not only while a connection is open.
///
/// A class, so that a subscription whose iterator is let go unregisters (in `deinit`) instead of
/// keeping `finishSendsAndInvalidate()` waiting.
final class SubscriptionLifetime: Sendable {
    private struct State {
        /// Why the network ended the subscription, once it has.
        var ending: (any Error)?
        /// The connection being read, which ending the subscription stops.
        var stream: ResponseStream?
        var registration: UInt64?
        var isClosed = false
    }

    private let registry: ActiveSendRegistry?
    private let requestType: ObjectIdentifier
    private let state = LockedState(State())
    /// What each connection and each wait to reconnect runs under: a send made under it is linked
    /// to it (see ``SendCancellation/run(_:)``), so cancelling it cancels that send.
    private let cancellation = SendCancellation()

    /// The lifetime of a subscription to `requestType` on `network`; a network that tracks no sends
    /// (one of your own) has nothing to reach it with, and it ends only with its consumer.
    init(network: any Network, requestType: ObjectIdentifier) {
        self.registry = (network as? any ActiveSendTracking)?.activeSends
        self.requestType = requestType
    }

    deinit {
        close()
    }

    /// Registers the subscription with its network, once.
    ///
    /// - Throws: ``NetworkError/invalidated`` when the network has been invalidated.
    func start() throws {
        guard let registry, state.withLock({ $0.registration == nil && !$0.isClosed }) else { return }
        let registration = registry.registerSubscription(requestType) { [weak self] error in self?.end(with: error) }
        guard let registration else { throw NetworkError.invalidated }
        let isClosed = state.withLock { state in
            if !state.isClosed { state.registration = registration }
            return state.isClosed
        }
        if isClosed { registry.unregisterSubscription(registration) }
    }

    /// Why the network ended the subscription, if it has: what the subscription ends with,
    /// whatever error that surfaced as.
    var ending: (any Error)? {
        state.withLock { $0.ending }
    }

    /// Ends the subscription with `error`, from any thread: the connection being read stops, and
    /// a connection being made or a wait to reconnect is cancelled.
    func end(with error: any Error) {
        let (ends, stream) = state.withLock { state -> (Bool, ResponseStream?) in
            guard state.ending == nil, !state.isClosed else { return (false, nil) }
            state.ending = error
            defer { state.stream = nil }
            return (true, state.stream)
        }
        guard ends else { return }
        cancellation.cancel()
        stream?.stop(with: error)
    }

    /// Runs `body` (making a connection, waiting to reconnect) so that ending the subscription
    /// cancels it.
    // On the caller's executor, as `SendCancellation.run` requires of the non-`Sendable` `body` it
    // passes on: the connection's work runs where the subscription's iterator runs.
    nonisolated(nonsending) func run<Value>(
        _ body: nonisolated(nonsending) () async throws -> Value
    ) async throws -> Value {
        try await cancellation.run(body)
    }

    /// Makes `stream` the connection that ending the subscription stops.
    ///
    /// - Throws: The subscription's ending, after stopping `stream`, when it has already ended.
    func read(_ stream: ResponseStream?) throws {
        let ending = state.withLock { state -> (any Error)? in
            if state.ending == nil { state.stream = stream }
            return state.ending
        }
        if let ending {
            stream?.stop(with: ending)
            throw ending
        }
    }

    /// The subscription is over: it is unregistered, and its connection, if any, stopped.
    func close() {
        let (registration, stream) = state.withLock { state -> (UInt64?, ResponseStream?) in
            state.isClosed = true
            defer {
                state.registration = nil
                state.stream = nil
            }
            return (state.registration, state.stream)
        }
        if let registration { registry?.unregisterSubscription(registration) }
        stream?.stop(with: NetworkError.cancelled)
    }
}
