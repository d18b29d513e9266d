import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport double for `HTTPNetwork`: it answers from stubs instead of the network, so
/// encoding, every action stage, validation and decoding run for real in your tests.
///
/// ```swift
/// let session = MockSession()
/// session.stub(.method(.get) && .path("/users"), with: MockResponse(json: [User(id: 1, name: "Ada")]))
/// let network = HTTPNetwork(configuration: .init(baseURL: baseURL), session: session)
/// let users = try await network.send(ListUsersRequest())
/// #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer t")
/// ```
///
/// **Precedence:** the stub added last that matches answers. A stub made with a list of responses
/// answers with them in order, one per request, and stops matching once they are used up, so an
/// earlier stub takes over (stub a 200 first, then `[503, 503]` on top, to test a retry).
/// A request that no stub matches fails with ``MockSessionError/noStub(request:)``.
public final class MockSession: Session {
    private struct Stub {
        let matcher: RequestMatcher
        var responses: [MockResponse]
        let repeatsLast: Bool
    }

    private struct State {
        var stubs: [Stub] = []
        var recordedRequests: [URLRequest] = []
        var cancelledRequestCount = 0
        var running = 0
        var maximumRunning = 0
    }

    private let state = LockedState(State())

    /// Creates a session with no stubs.
    public init() {}

    /// Answers every request that `matcher` matches with `response`, for as long as the session lives.
    public func stub(_ matcher: RequestMatcher = .any, with response: MockResponse) {
        state.withLock { $0.stubs.append(Stub(matcher: matcher, responses: [response], repeatsLast: true)) }
    }

    /// Answers requests that `matcher` matches with `responses`, one each, in order; once they are
    /// used up the stub no longer matches.
    public func stub(_ matcher: RequestMatcher = .any, with responses: [MockResponse]) {
        // An empty list would match and then have nothing to answer with.
        guard !responses.isEmpty else { return }
        state.withLock { $0.stubs.append(Stub(matcher: matcher, responses: responses, repeatsLast: false)) }
    }

    /// Removes every stub and recorded request.
    public func reset() {
        state.withLock { $0 = State() }
    }

    /// Every request the session was asked to send, in order, exactly as it would go on the wire:
    /// method, final URL, headers after every action, and body bytes.
    public var recordedRequests: [URLRequest] {
        state.withLock { $0.recordedRequests }
    }

    /// How many tasks were cancelled before they answered.
    public var cancelledRequestCount: Int {
        state.withLock { $0.cancelledRequestCount }
    }

    /// The most tasks that were running (resumed and not yet answered) at the same time.
    public var maximumConcurrentRequests: Int {
        state.withLock { $0.maximumRunning }
    }

    /// Creates a task that answers from the stubs when resumed.
    public func dataTask(
        for request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any SessionTask {
        MockSessionTask(request: request, session: self, completion: completion)
    }

    func start(_ request: URLRequest) -> MockResponse {
        // A file body arrives as a stream, which the session reads as URLSession would, so the
        // recorded request shows its bytes in `httpBody`.
        var request = request
        var unreadable = false
        if request.httpBody == nil, let stream = request.httpBodyStream {
            request.httpBody = Self.read(stream)
            unreadable = request.httpBody == nil
        }
        return state.withLock { state in
            state.recordedRequests.append(request)
            state.running += 1
            state.maximumRunning = max(state.maximumRunning, state.running)
            if unreadable { return MockResponse(failure: URLError(.cannotOpenFile)) }
            guard let index = state.stubs.lastIndex(where: { $0.matcher.matches(request) }) else {
                return MockResponse(failure: MockSessionError.noStub(request: Self.describe(request)))
            }
            let stub = state.stubs[index]
            if stub.repeatsLast { return stub.responses[0] }
            let response = state.stubs[index].responses.removeFirst()
            if state.stubs[index].responses.isEmpty { state.stubs.remove(at: index) }
            return response
        }
    }

    func finish(cancelled: Bool) {
        state.withLock { state in
            state.running -= 1
            if cancelled { state.cancelledRequestCount += 1 }
        }
    }

    /// Counts a task cancelled before it was resumed: it never ran, but it was cancelled.
    func countCancellationBeforeStart() {
        state.withLock { $0.cancelledRequestCount += 1 }
    }

    /// The whole of `stream`, or `nil` when it cannot be read (its file is gone).
    private static func read(_ stream: InputStream) -> Data? {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 { return nil }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// The request as the error names it, redacted as every description of the library is: the
    /// error goes to logs and CI output, and a replayed request carries a live credential.
    private static func describe(_ request: URLRequest) -> String {
        let redaction = Redaction.forDescriptions
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
            .map { "\($0.key): \(redaction.headerValue(name: $0.key, value: $0.value))" }.joined(separator: ", ")
        let url = request.url.map { redaction.url($0) } ?? "<no URL>"
        return "\(request.httpMethod ?? "GET") \(url) [\(headers)]"
    }
}
