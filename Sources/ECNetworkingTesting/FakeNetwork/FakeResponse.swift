import ECNetworking
import Foundation

/// One answer a ``FakeNetwork`` gives to a request of type `R`, after an optional delay.
///
/// Use the single-answer `stub` methods of ``FakeNetwork`` for the common cases; build
/// `FakeResponse` values when a request should get different answers in turn:
///
/// ```swift
/// fake.stub(ListUsersRequest.self, with: [.error(URLError(.timedOut)), .value(users)])
/// ```
public struct FakeResponse<R: Request>: Sendable {
    enum Outcome: Sendable {
        case value(R.Response)
        case computed(@Sendable (R) throws -> R.Response)
        case error(any Error)
        case networkResponse(NetworkResponse)
        case streamed(@Sendable (NetworkRequest) throws -> FakeStream)
    }

    let outcome: Outcome
    /// How long the fake waits before answering, to simulate latency. Cancelling the send during
    /// the wait ends it at once with `NetworkError.cancelled`.
    public var delay: Duration

    private init(_ outcome: Outcome, delay: Duration) {
        self.outcome = outcome
        self.delay = delay
    }

    /// Answers with `value`, as if the server's response had decoded to it.
    public static func value(_ value: R.Response, delay: Duration = .zero) -> FakeResponse {
        FakeResponse(.value(value), delay: delay)
    }

    /// Answers with what `answer` returns for the request that was sent, so the answer can depend
    /// on the request's properties (an id, a page). An error it throws fails the send unchanged.
    public static func computed(
        delay: Duration = .zero,
        _ answer: @escaping @Sendable (R) throws -> R.Response
    ) -> FakeResponse {
        FakeResponse(.computed(answer), delay: delay)
    }

    /// Fails the send with `error`, unchanged. To mimic what `HTTPNetwork` throws for a
    /// transport failure, pass `NetworkError.transport(URLError(.notConnectedToInternet))`.
    public static func error(_ error: any Error, delay: Duration = .zero) -> FakeResponse {
        FakeResponse(.error(error), delay: delay)
    }

    /// Answers with a raw response that the request then validates and decodes for real, to test
    /// the request's own decoding or an API's error statuses. A status the request does not
    /// accept fails with `NetworkError.unacceptableStatusCode(_:)`; a body that does not decode
    /// fails with `NetworkError.decodingFailed(_:response:)`.
    public static func networkResponse(_ response: NetworkResponse, delay: Duration = .zero) -> FakeResponse {
        FakeResponse(.networkResponse(response), delay: delay)
    }

    /// A response whose body arrives in pieces (see ``FakeStream``), after `delay`: a stream, a
    /// download or an event subscription of the type reads it as it comes; a send gathers it.
    public static func streaming(_ stream: FakeStream, delay: Duration = .zero) -> FakeResponse {
        FakeResponse(.streamed({ _ in stream }), delay: delay)
    }

    /// A response whose body arrives in pieces, which `script` makes for each request as it goes
    /// out (after the will-begin actions), so it can answer a `Range`, an `If-Range` or a
    /// `Last-Event-ID` as a server would; an error it throws is the attempt's.
    public static func streaming(
        delay: Duration = .zero, _ script: @escaping @Sendable (NetworkRequest) throws -> FakeStream
    ) -> FakeResponse {
        FakeResponse(.streamed(script), delay: delay)
    }

    /// The same answer after `delay` instead of its own, for latency added to a shared answer.
    public func delayed(by delay: Duration) -> FakeResponse {
        FakeResponse(outcome, delay: delay)
    }
}
