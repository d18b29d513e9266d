import Foundation

/// A response whose body arrives as it streams: the head (status, headers, the request as sent,
/// timings) at once, then the body as chunks of `Data`, read as they come off the wire.
///
/// Made by a ``Network``'s `stream(_:priority:progress:)`:
///
/// ```swift
/// let stream = try await network.stream(CompletionRequest(prompt: "Hello"))
/// for try await line in stream.lines {
///     print(line)
/// }
/// ```
///
/// Every action stage ran for it: the completed actions saw the head (with an empty body), and the
/// status was validated, so a failing status reached you as
/// ``NetworkError/unacceptableStatusCode(_:)`` instead, with no more than
/// ``NetworkConfiguration/maximumErrorBodySize`` bytes of its body (the rest is not read).
///
/// The body is read once, by one task, no faster than that task reads it. It fails with
/// ``NetworkError/timedOut(after:)`` when the server sends nothing for
/// ``NetworkConfiguration/streamIdleTimeout``, with ``NetworkError/responseTooLarge(limit:)`` past
/// ``NetworkConfiguration/maximumResponseSize``, and with ``NetworkError/cancelled`` when the
/// reading task is cancelled or the network cancels its sends. Letting the stream go unread, or
/// breaking out of the loop, ends the transfer and frees the connection.
public struct ResponseStream: AsyncSequence, Sendable {
    /// A chunk of the body; never empty.
    public typealias Element = Data

    /// The response head: status, headers, URL, the request as sent, and the timings up to the
    /// head. Its ``NetworkResponse/body`` is empty; the body is this sequence.
    public let response: NetworkResponse
    private let body: StreamedBody

    init(response: NetworkResponse, body: StreamedBody) {
        self.response = response
        self.body = body
    }

    /// A stream of `response` whose body is already whole: what a ``Network`` without streaming
    /// of its own, such as a test double, returns.
    public init(completeResponse response: NetworkResponse) {
        var head = response
        head.body = Data()
        self.init(response: head, body: StreamedBody(BodyRelay(ByteStream(response.body))))
    }

    /// The HTTP status code.
    public var statusCode: Int { response.statusCode }

    /// The response's header fields.
    public var headers: HTTPHeaders { response.headers }

    /// Starts reading the body; a second iterator of the same stream finds it already taken and
    /// throws ``NetworkError/invalidRequest(reason:)``.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(body: body.take())
    }

    /// Hands the body's chunks to `receiver` where the transport delivers them, and returns `true`
    /// at its end; `false`, reading nothing, when the transport cannot push (see
    /// ``BodyRelay/push(to:)``) and the body is to be read instead.
    func push(to receiver: @escaping ChunkReceiver) async throws -> Bool {
        // Taken first, so no iterator reads it meanwhile; only when it can be pushed, so that
        // otherwise it is left to be read.
        guard body.relay.isPushable, body.take() != nil else { return false }
        if try await body.relay.push(to: receiver) { return true }
        // Stopped between the check and the push: its end, as a reader would meet it.
        _ = try await body.relay.next()
        return true
    }

    /// The body's lines, as text; see ``ResponseLines``. Cancelling the stream (``cancel()``) or
    /// the task reading it, or the network's `cancelAll()`, ends the lines at once with
    /// ``NetworkError/cancelled``, lines already buffered from a chunk that held several
    /// included. An idle timeout or a broken connection ends them after the lines that came.
    public var lines: ResponseLines<ResponseStream> {
        // Lines already buffered from a chunk end with the stream too: cancelled (by `cancel()`
        // or the reading task), timed out or invalidated, the next line is the error, never a
        // line that came before it.
        ResponseLines(self, maximumLength: ResponseLines<ResponseStream>.defaultMaximumLength) { [body] in
            guard !Task.isCancelled else {
                body.relay.stop(with: NetworkError.cancelled)
                return NetworkError.cancelled
            }
            return body.cancellation
        }
    }

    /// Reads the rest of the body into memory, failing with
    /// ``NetworkError/responseTooLarge(limit:)`` as soon as more than `limit` bytes have arrived.
    public func collect(upTo limit: Int? = nil) async throws -> Data {
        var collected = Data()
        for try await chunk in self {
            if let limit, chunk.count > limit - collected.count {
                body.relay.stop(with: NetworkError.responseTooLarge(limit: limit))
                throw NetworkError.responseTooLarge(limit: limit)
            }
            collected.append(chunk)
        }
        return collected
    }

    /// The body's first `limit` bytes, or all of it if shorter. The rest is never read: the
    /// transfer stops once `limit` bytes have come and one more arrives, and its connection closes.
    func collectPrefix(_ limit: Int) async throws -> Data {
        let limit = Swift.max(0, limit)
        var collected = Data()
        for try await chunk in self {
            let room = limit - collected.count
            guard chunk.count <= room else {
                collected.append(chunk.prefix(room))
                body.relay.stop(with: NetworkError.cancelled)
                break
            }
            collected.append(chunk)
        }
        return collected
    }

    /// Ends the transfer now; a reader waiting for a chunk gets ``NetworkError/cancelled``.
    public func cancel() {
        body.cancel()
    }

    /// Ends the transfer now with `error`, which a reader waiting for a chunk gets.
    func stop(with error: any Error) {
        body.relay.stop(with: error)
    }

    /// Reads the body's chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let body: StreamedBody?

        init(body: StreamedBody?) {
            self.body = body
        }

        /// The next chunk, or `nil` at the body's end.
        public mutating func next() async throws -> Data? {
            guard let body else {
                throw NetworkError.invalidRequest(reason: "a response stream can be read only once")
            }
            return try await body.relay.next()
        }
    }
}

/// The consumer's hold on a ``BodyRelay``: when the last copy of the stream and its iterator are
/// gone, the transfer is stopped, so no connection is left reading a body nobody will take.
final class StreamedBody: Sendable {
    let relay: BodyRelay
    private let isTaken = LockedState(false)
    private let isCancelled = LockedState(false)

    init(_ relay: BodyRelay) {
        self.relay = relay
    }

    /// This body, for the first iterator; `nil` for any later one.
    func take() -> StreamedBody? {
        isTaken.withLock { isTaken in
            defer { isTaken = true }
            return isTaken ? nil : self
        }
    }

    /// Ends the transfer, and remembers that it was cancelled even when the body had ended.
    func cancel() {
        isCancelled.withLock { $0 = true }
        relay.stop(with: NetworkError.cancelled)
    }

    /// The cancellation that ends a reader of what was already read (a line reader's buffered
    /// lines): ``cancel()``, or a stop from outside that cancelled (`cancelAll`, the reading
    /// task); `nil` otherwise. An idle timeout or a broken connection leaves those lines to read.
    var cancellation: (any Error)? {
        if isCancelled.withLock({ $0 }) { return NetworkError.cancelled }
        guard let error = relay.stopError, (error as? NetworkError)?.isCancellation == true else { return nil }
        return error
    }

    deinit {
        relay.stop(with: NetworkError.cancelled)
    }
}
