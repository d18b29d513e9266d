import Foundation

/// The events of a ``Network/serverSentEvents(_:priority:reconnection:maximumEventSize:lastEventID:)``
/// subscription, over as many connections as it takes.
///
/// Each iteration is a subscription of its own. It reads as its consumer asks: a connection is
/// made at the first `next()`, and an event is parsed only when `next()` asks for it. While the
/// consumer pauses, what is read ahead is the transport's buffer (1 MiB over
/// `URLSessionTransport`) and one chunk; the rest stays with the transport, which applies
/// backpressure as for any ``ResponseStream`` (on Linux, `URLSessionTransport` keeps what arrives
/// beyond its buffer in a temporary file instead).
///
/// How it ends: `nil` when the server ends the stream and no reconnection was asked for, or when
/// it answers 204 No Content; otherwise with an error (see
/// ``Network/serverSentEvents(_:priority:reconnection:maximumEventSize:lastEventID:)``). With reconnection it
/// never ends quietly: a subscription that cannot reconnect fails with
/// ``ServerSentEventError/reconnectionLimitReached(lastError:)``.
public struct ServerSentEventSubscription: AsyncSequence, Sendable {
    /// One event.
    public typealias Element = ServerSentEvent

    /// Opens one connection, resuming after the given last event ID.
    typealias Connect = @Sendable (_ lastEventID: String?) async throws -> ResponseStream

    private let network: any Network
    private let requestType: ObjectIdentifier
    private let reconnection: ServerSentEventReconnection?
    private let maximumEventSize: Int
    /// The last event ID the first connection resumes after, if the caller knows one.
    private let initialLastEventID: String?
    private let connect: Connect
    /// Told of each connection once it is an event stream; see ``onConnectionOpened(_:)``.
    private var connectionOpened: (@Sendable (NetworkResponse) -> Void)?

    init(
        network: any Network, requestType: ObjectIdentifier, reconnection: ServerSentEventReconnection?,
        maximumEventSize: Int, lastEventID: String? = nil, connect: @escaping Connect
    ) {
        self.network = network
        self.requestType = requestType
        self.reconnection = reconnection
        self.maximumEventSize = maximumEventSize
        self.initialLastEventID = lastEventID
        self.connect = connect
    }

    /// The same subscription, calling `handler` each time a connection opens as an event stream
    /// (a 200 with `text/event-stream`, before its first event), with the response head: to show
    /// "live" in a UI, or to log reconnections. Not called for a connection that fails or for a
    /// 204 that ends the subscription.
    ///
    /// ```swift
    /// let feed = network.serverSentEvents(PriceFeedRequest(), reconnection: ServerSentEventReconnection())
    ///     .onConnectionOpened { response in print("connected: \(response.statusCode)") }
    /// ```
    public func onConnectionOpened(_ handler: @escaping @Sendable (NetworkResponse) -> Void) -> Self {
        var subscription = self
        subscription.connectionOpened = handler
        return subscription
    }

    /// Starts a subscription; it connects at the first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(self)
    }

    /// Reads the events of one subscription in order, reconnecting as asked.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let subscription: ServerSentEventSubscription
        private let lifetime: SubscriptionLifetime
        /// The connection being read.
        private var events: ServerSentEvents<ResponseStream>.AsyncIterator?
        private var lastEventID: String?
        /// The delay before the next reconnection: the client's until the server sends `retry`.
        private var delay: Duration
        /// Connections in a row that failed; see ``connectionEnded(madeProgress:lastError:)``.
        private var failures = 0
        /// How long to wait before the next connection.
        private var wait: Duration?
        private var hasStarted = false
        private var isFinished = false

        init(_ subscription: ServerSentEventSubscription) {
            self.subscription = subscription
            self.lifetime = SubscriptionLifetime(network: subscription.network, requestType: subscription.requestType)
            self.delay = subscription.reconnection?.delay ?? .zero
            self.lastEventID = subscription.initialLastEventID
        }

        /// The next event, connecting and reconnecting as needed; `nil` once the subscription ended
        /// cleanly.
        public mutating func next() async throws -> ServerSentEvent? {
            guard !isFinished else { return nil }
            do {
                if let ending = lifetime.ending { throw ending }
                if !hasStarted {
                    hasStarted = true
                    try lifetime.start()
                }
                if let event = try await nextEvent() { return event }
                finish()
                return nil
            } catch {
                finish()
                // Ended by the network: its reason, however the connection's end surfaced.
                throw lifetime.ending ?? NetworkError.normalize(error)
            }
        }

        private mutating func finish() {
            isFinished = true
            events = nil
            lifetime.close()
        }

        private mutating func nextEvent() async throws -> ServerSentEvent? {
            while true {
                if events == nil {
                    do {
                        guard try await open() else { return nil }
                    } catch  where canReconnect(after: error) {
                        try connectionEnded(madeProgress: false, lastError: error)
                        continue
                    }
                }
                do {
                    if let event = try await events!.next() {
                        remember(events!.parser)
                        return event
                    }
                    let parser = endConnection()
                    guard subscription.reconnection != nil else { return nil }
                    try connectionEnded(madeProgress: parser.hasReadLine, lastError: nil)
                } catch  where canReconnect(after: error) {
                    let parser = endConnection()
                    try connectionEnded(madeProgress: parser.hasReadLine, lastError: error)
                }
            }
        }

        /// Waits as the last connection's end asked, then connects; `false` when the server
        /// answered 204 No Content, the standard's way to say "stop reconnecting".
        private mutating func open() async throws -> Bool {
            if let wait {
                self.wait = nil
                try await lifetime.run { try await SendCancellation.sleep(for: wait) }
            }
            let lastEventID = lastEventID
            let connect = subscription.connect
            let stream = try await lifetime.run { try await connect(lastEventID) }
            try lifetime.read(stream)
            if stream.statusCode == 204 {
                // The server's way to say "stop": read to its (empty) end, a send that succeeded.
                _ = try await lifetime.run { try await stream.collect() }
                return false
            }
            // The standard reads events from a 200 alone: another success (a 206 of a range, a
            // 201) is not an event stream to resume, and a new connection would get it again.
            // The connection ends with the error the caller gets, which its observers hear too.
            guard stream.statusCode == 200 else {
                let error = NetworkError.unacceptableStatusCode(stream.response)
                stream.stop(with: error)
                throw error
            }
            do {
                try Self.checkContentType(of: stream.response)
            } catch {
                stream.stop(with: error)
                throw error
            }
            subscription.connectionOpened?(stream.response)
            events = ServerSentEvents(
                stream,
                parser: ServerSentEventParser(
                    maximumLineLength: ServerSentEventParser.defaultMaximumLineLength,
                    maximumEventSize: subscription.maximumEventSize, lastEventID: lastEventID)
            ).makeAsyncIterator()
            return true
        }

        /// Forgets the connection that ended; returns its parser, which says how far it got.
        private mutating func endConnection() -> ServerSentEventParser {
            let parser = events!.parser
            remember(parser)
            events = nil
            try? lifetime.read(nil)
            return parser
        }

        /// Takes the last event ID and the server's delay as the parser has them so far: a `retry`
        /// applies at once, even in an event without data.
        private mutating func remember(_ parser: ServerSentEventParser) {
            lastEventID = parser.lastEventID
            if let delay = parser.reconnectionDelay { self.delay = delay }
        }

        /// Counts a connection that ended, and decides how long to wait before the next one.
        ///
        /// A connection that brought a line (an event, a field, or a comment such as a heartbeat)
        /// did not fail, however it ended: a proxy that closes a quiet stream now and then must
        /// not wear the subscription out. One that could not be made, or ended before the server
        /// sent a line, failed; failures in a row back off exponentially, with jitter, up to
        /// ``ServerSentEventReconnection/maximumDelay``.
        ///
        /// - Throws: ``ServerSentEventError/reconnectionLimitReached(lastError:)`` past the limit.
        private mutating func connectionEnded(madeProgress: Bool, lastError: (any Error)?) throws {
            guard let reconnection = subscription.reconnection else { return }
            failures = madeProgress ? 0 : failures + 1
            if let limit = reconnection.maximumConsecutiveFailures, failures > limit {
                throw ServerSentEventError.reconnectionLimitReached(lastError: lastError.map(NetworkError.normalize))
            }
            wait = reconnection.wait(after: failures, serverDelay: delay)
        }

        /// Whether the subscription reconnects after `error`: only when asked to, when the network
        /// has not ended it, and when a new connection may cure the error.
        private func canReconnect(after error: any Error) -> Bool {
            subscription.reconnection != nil && lifetime.ending == nil
                && Self.isWorthReconnecting(after: NetworkError.normalize(error))
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
}
