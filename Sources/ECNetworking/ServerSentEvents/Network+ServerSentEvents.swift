import Foundation

/// Whether, and how, a Server-Sent Events subscription reconnects after its stream ends; see
/// ``Network/serverSentEvents(_:priority:reconnection:maximumEventSize:lastEventID:)``.
///
/// After a connection that brought something (an event, a field, or a comment such as a heartbeat),
/// the subscription waits ``delay``, or the server's own delay once it sent a `retry` line, plus up
/// to half as much again at random, so that clients cut off together do not all come back at the
/// same moment. A connection that could not be made, or that ended before the server sent a line,
/// failed: each failure in a row doubles the wait, up to ``maximumDelay``, and past
/// ``maximumConsecutiveFailures`` the subscription ends with
/// ``ServerSentEventError/reconnectionLimitReached(lastError:)``.
public struct ServerSentEventReconnection: Sendable, Hashable {
    /// How long to wait before reconnecting, until the server sets its own delay with a `retry`
    /// line.
    public var delay: Duration
    /// How many reconnections in a row may fail (fail to connect, or end before the server sent a
    /// line) before the subscription gives up with
    /// ``ServerSentEventError/reconnectionLimitReached(lastError:)``; `nil` for no limit.
    public var maximumConsecutiveFailures: Int?
    /// The longest that back-off after failures makes the subscription wait; a server's `retry`
    /// longer than this is still obeyed.
    public var maximumDelay: Duration
    /// How long a connection may go without a byte (an event, a field, or a comment such as a
    /// heartbeat) before the subscription drops it and reconnects, resuming after the last event
    /// ID; `nil`, the default, leaves the network's
    /// ``NetworkConfiguration/streamIdleTimeout`` (60 seconds) in force. Set it a little above the
    /// server's heartbeat interval (servers commonly send one every 15 to 30 seconds) to notice
    /// a dead connection that no error reports. Applies over ``HTTPNetwork``; another network
    /// applies its own.
    public var idleTimeout: Duration?

    /// Reconnects after `delay` (3 seconds by default, as browsers do), backing off after failures
    /// up to `maximumDelay` (a minute by default), giving up after `maximumConsecutiveFailures`
    /// failures in a row (5 by default); a connection silent for `idleTimeout` is dropped and
    /// made again.
    public init(
        delay: Duration = .seconds(3), maximumConsecutiveFailures: Int? = 5, maximumDelay: Duration = .seconds(60),
        idleTimeout: Duration? = nil
    ) {
        self.delay = delay
        self.maximumConsecutiveFailures = maximumConsecutiveFailures
        self.maximumDelay = maximumDelay
        self.idleTimeout = idleTimeout
    }

    /// How long to wait after `failures` failed connections in a row, when the delay in force is
    /// `serverDelay`: doubled for each failure up to ``maximumDelay``, then up to half as much again
    /// at random, never less than `serverDelay`, and never less than ``minimumDelay``: a server
    /// that sends `retry: 0` and closes at once cannot make the client reconnect in a tight loop.
    func wait(after failures: Int, serverDelay: Duration) -> Duration {
        let base = max(serverDelay, Self.minimumDelay)
        // 2^16 is far past any cap: the exponent is bounded so the product cannot overflow.
        let backedOff = min(base * Double(1 << min(failures, 16)), max(maximumDelay, base))
        let jittered = min(backedOff * Double.random(in: 1...1.5), max(maximumDelay, base))
        return max(base, jittered)
    }

    /// The shortest wait before any reconnection.
    public static let minimumDelay: Duration = .milliseconds(100)
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
    /// (servers send a comment line now and then to keep a quiet stream alive). As the standard
    /// says, only a 200 is an event stream: another success (a 201, a 206) fails with
    /// ``NetworkError/unacceptableStatusCode(_:)``, and a response that is not
    /// `text/event-stream` with ``NetworkError/unacceptableContentType(_:)``; neither reconnects. Events are
    /// read as the loop asks for them (see ``ServerSentEventSubscription``); one whose data passes
    /// `maximumEventSize` bytes (1 MiB by default) fails with
    /// ``ServerSentEventError/eventTooLarge(limit:)``.
    ///
    /// Without `reconnection` the sequence ends when the server ends the stream. A 204 No Content
    /// ends it too, and no reconnection follows, as the standard says. With `reconnection`, a
    /// stream that ends or breaks is opened again after the delay (the server's `retry`, as soon as
    /// it sent one), with `Last-Event-ID` set to the last event ID the server set, so it can resume
    /// where it left off; the subscription then ends only at a 204 or with an error: a failing
    /// status, an action's error, ``ServerSentEventError/reconnectionLimitReached(lastError:)`` when
    /// connections keep failing (see ``ServerSentEventReconnection``).
    ///
    /// `lastEventID` resumes a subscription an earlier one (or an earlier run of the app) left off:
    /// the first connection sends it as `Last-Event-ID`, and it is the ID of events that set none,
    /// until the server sets another.
    ///
    /// Cancelling the task that iterates ends the connection, with ``NetworkError/cancelled``, and
    /// so do the network's `cancelAll()` and `cancelAll(of:)` with `R`'s type, whether a connection
    /// is open, being made, or waited for. `invalidate()` ends it as it cancels every send;
    /// `finishSendsAndInvalidate()`, which would otherwise wait for ever for a stream that has no
    /// end, ends it with ``NetworkError/invalidated``.
    public func serverSentEvents<R: Request>(
        _ request: R,
        priority: RequestPriority = .normal,
        reconnection: ServerSentEventReconnection? = nil,
        maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize,
        lastEventID: String? = nil
    ) -> ServerSentEventSubscription {
        ServerSentEventSubscription(
            network: self, requestType: ObjectIdentifier(R.self), reconnection: reconnection,
            maximumEventSize: maximumEventSize, lastEventID: lastEventID
        ) { lastEventID in
            try await self.stream(
                EventStreamRequest(base: request, lastEventID: lastEventID, idleTimeout: reconnection?.idleTimeout),
                priority: priority, progress: nil)
        }
    }
}

/// `base`, asking for an event stream and resuming after `lastEventID`.
private struct EventStreamRequest<Base: Request>: WrappingRequest {
    typealias Response = Void
    let base: Base
    let lastEventID: String?
    /// How long the connection may be silent; `nil` for the network's own limit.
    let idleTimeout: Duration?

    var wrappedRequest: any Request { Self.unwrapped(base) }

    var customProperties: CustomProperties {
        guard let idleTimeout else { return base.customProperties }
        var properties = base.customProperties
        properties[StreamIdleTimeout.self] = idleTimeout
        return properties
    }

    func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        var request = try base.buildRequest(with: baseURL)
        request.headers["Accept"] = "text/event-stream"
        request.headers["Cache-Control"] = "no-store"
        // The standard sends no header for an empty ID, which is how a server clears it.
        if let lastEventID, !lastEventID.isEmpty { request.headers["Last-Event-ID"] = lastEventID }
        return request
    }
}
