import Foundation

/// Whether, and how, a Server-Sent Events subscription reconnects after its stream ends; see
/// ``Network/serverSentEvents(_:priority:reconnection:)``.
public struct ServerSentEventReconnection: Sendable, Hashable {
    /// How long to wait before reconnecting, until the server sets its own delay with a `retry`
    /// line.
    public var delay: Duration
    /// How many reconnections in a row may fail (end with no new event, or fail to connect) before
    /// the subscription gives up with the last error; `nil` for no limit.
    public var maximumConsecutiveFailures: Int?

    /// Reconnects after `delay` (3 seconds by default, as browsers do), giving up after
    /// `maximumConsecutiveFailures` failures in a row (5 by default).
    public init(delay: Duration = .seconds(3), maximumConsecutiveFailures: Int? = 5) {
        self.delay = delay
        self.maximumConsecutiveFailures = maximumConsecutiveFailures
    }
}

extension Network {
    /// Subscribes to the Server-Sent Events (`text/event-stream`) that `request` answers with, as
    /// they arrive.
    ///
    /// ```swift
    /// for try await event in network.serverSentEvents(PriceUpdatesRequest(), reconnection: .init()) {
    ///     print(event.event, event.data)
    /// }
    /// ```
    ///
    /// Each connection is a ``stream(_:priority:progress:)-(R,_,_)`` send, with every action stage,
    /// `Accept: text/event-stream`, and ``NetworkConfiguration/streamIdleTimeout`` over its body
    /// (servers send a comment line now and then to keep a quiet stream alive). A response that is
    /// not `text/event-stream` fails with ``NetworkError/unacceptableContentType(_:)``.
    ///
    /// Without `reconnection` the sequence ends when the server ends the stream. A 204 No Content
    /// ends it too, and no reconnection follows, as the standard says. With `reconnection`, a
    /// stream that ends or breaks is opened again after the delay (the server's `retry`, once it
    /// sent one), with `Last-Event-ID` set to the last event's ID, so the server can resume where
    /// it left off; a failing status, an action's error or cancellation still end the sequence.
    /// Cancelling the task that iterates it ends the connection.
    public func serverSentEvents<R: Request>(
        _ request: R,
        priority: RequestPriority = .normal,
        reconnection: ServerSentEventReconnection? = nil
    ) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self)
        let subscription = Task {
            do {
                try await ServerSentEventSubscription(
                    network: self, request: request, priority: priority, reconnection: reconnection
                ).run { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: NetworkError.normalize(error))
            }
        }
        continuation.onTermination = { _ in subscription.cancel() }
        return events
    }
}

/// The connections of one ``Network/serverSentEvents(_:priority:reconnection:)`` subscription.
private struct ServerSentEventSubscription<Base: Request> {
    let network: any Network
    let request: Base
    let priority: RequestPriority
    let reconnection: ServerSentEventReconnection?

    func run(_ deliver: (ServerSentEvent) -> Void) async throws {
        var lastEventID: String?
        var delay = reconnection?.delay ?? .zero
        var failures = 0
        while true {
            var sawEvent = false
            var lastError: (any Error)?
            do {
                let stream = try await network.stream(
                    EventStreamRequest(base: request, lastEventID: lastEventID), priority: priority, progress: nil)
                // The standard's way for a server to say "stop reconnecting".
                if stream.statusCode == 204 { return }
                try Self.checkContentType(of: stream.response)
                for try await event in stream.serverSentEvents() {
                    sawEvent = true
                    if let id = event.id { lastEventID = id }
                    if let retry = event.retry { delay = retry }
                    deliver(event)
                }
            } catch  where reconnection != nil && Self.isWorthReconnecting(after: error) {
                lastError = error
            }
            guard let reconnection else { return }
            // A connection that brought no event counts against the limit, however it ended.
            failures = sawEvent ? 0 : failures + 1
            if let limit = reconnection.maximumConsecutiveFailures, failures > limit {
                if let lastError { throw lastError }
                return
            }
            try await Task.sleep(for: delay)
        }
    }

    /// Only what a new connection may cure: the connection, not the server's answer. A stream
    /// cut inside an event is a connection that broke.
    private static func isWorthReconnecting(after error: any Error) -> Bool {
        switch error {
        case NetworkError.transport, NetworkError.timedOut, NetworkError.invalidResponse,
            ServerSentEventError.streamEndedMidEvent:
            true
        default:
            false
        }
    }

    private static func checkContentType(of response: NetworkResponse) throws {
        let type = response.headers["Content-Type"] ?? ""
        let essence = type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard essence == "text/event-stream" else { throw NetworkError.unacceptableContentType(response) }
    }
}

/// `base`, asking for an event stream and resuming after `lastEventID`.
private struct EventStreamRequest<Base: Request>: Request {
    typealias Response = Void
    let base: Base
    let lastEventID: String?

    var customProperties: CustomProperties { base.customProperties }

    func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        var request = try base.buildRequest(with: baseURL)
        request.headers["Accept"] = "text/event-stream"
        request.headers["Cache-Control"] = "no-store"
        if let lastEventID { request.headers["Last-Event-ID"] = lastEventID }
        return request
    }
}
