import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The test doubles' rows of the promise matrix: a `URLSessionNetwork` over a `MockSession`, and a
/// `FakeNetwork` that runs its actions, each answering as ``MatrixServer`` does, over every way to
/// send. The columns that need a wire (bad peers, memory, cookies) are in the other matrix files.
@Suite("Promise matrix: the test doubles", .timeLimit(.minutes(1)))
struct PromiseMatrixDoublesTests {
    enum Double: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case mockSession
        case fakeNetwork

        var testDescription: String { rawValue }

        /// A network of this double, observed by `observers`, answering `/ok`, `/fail` and (after a
        /// minute) `/silent` as the matrix server does.
        func makeNetwork(observers: MatrixObservers) -> any Network {
            var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com/")!)
            observers.observe(&configuration)
            switch self {
            case .mockSession:
                let session = MockSession()
                for isEventStream in [false, true] {
                    let matches = { @Sendable (request: URLRequest) in
                        (request.value(forHTTPHeaderField: "Accept")?.contains("text/event-stream") ?? false)
                            == isEventStream
                    }
                    session.stub(
                        RequestMatcher { $0.url?.path == "/ok" && matches($0) },
                        with: MockResponse(
                            statusCode: 200, data: Self.okBody(isEventStream),
                            headers: Self.okHeaders(isEventStream)))
                }
                session.stub(
                    .path("/fail"),
                    with: MockResponse(statusCode: 401, data: Self.failBody, headers: Self.failHeaders))
                session.stub(.path("/silent"), with: MockResponse(statusCode: 200, delay: .seconds(60)))
                let network = URLSessionNetwork(configuration: configuration, session: session)
                network.add(action: observers.failureAction)
                return network
            case .fakeNetwork:
                let fake = FakeNetwork(configuration: configuration, runsActions: true)
                fake.stubNetworkRequests { request in
                    let isEventStream = request.headers["Accept"]?.contains("text/event-stream") ?? false
                    switch request.url.path {
                    case "/fail":
                        return NetworkResponse(statusCode: 401, headers: Self.failHeaders, body: Self.failBody)
                    default:
                        return NetworkResponse(
                            statusCode: 200, headers: Self.okHeaders(isEventStream), body: Self.okBody(isEventStream))
                    }
                }
                // A typed send (a storage send, a completion handler's) is stubbed by its type, answering as the server would.
                fake.stub(
                    RawTypedRequest.self,
                    with: .streaming { request in
                        request.url.path == "/fail"
                            ? FakeStream(statusCode: 401, headers: Self.failHeaders, chunks: [Self.failBody])
                            : FakeStream(statusCode: 200, headers: Self.okHeaders(false), chunks: [Self.okBody(false)])
                    })
                fake.add(action: observers.failureAction)
                return fake
            }
        }

        private static func okBody(_ isEventStream: Bool) -> Data {
            Data((isEventStream ? "data: one\n\n" : #"{"ok":true}"#).utf8)
        }

        private static func okHeaders(_ isEventStream: Bool) -> HTTPHeaders {
            [
                "Content-Type": isEventStream ? "text/event-stream" : "application/json",
                "Set-Cookie": "session=\(MatrixSecrets.cookie)",
            ]
        }

        private static let failBody = Data(
            #"{"error":"expired","access_token":"\#(MatrixSecrets.responseToken)"}"#.utf8)
        private static let failHeaders: HTTPHeaders = [
            "Content-Type": "application/json", "Set-Cookie": "session=\(MatrixSecrets.cookie)",
        ]
    }

    /// What the double's sends to `route` look like.
    private func request(_ route: MatrixServer.Route) -> NetworkRequest {
        MatrixSecrets.request(route, on: URL(string: "https://api.example.com")!)
    }

    @Test(
        "every send ends exactly once, and no planted secret shows in what the network logs, measures or reports",
        arguments: SendWay.allCases, Double.allCases)
    func endsOnceWithoutSecrets(way: SendWay, double: Double) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        for route in [MatrixServer.Route.ok, .fail] {
            let observers = MatrixObservers()
            let network = double.makeNetwork(observers: observers)
            var results: [String] = []
            var seen = ""
            do {
                let outcome = try await way.run(
                    request(route), through: network, bodySecret: MatrixSecrets.bodyPassword, folder: folder.url)
                results.append("status \(outcome.status)")
            } catch {
                results.append("error")
                seen += renderings(of: error).values.joined(separator: "\n")
            }
            try await Task.sleep(for: .milliseconds(20))
            expectOneEnd(results, of: way, to: route, failureCalls: observers.failures.all.count)
            if double == .mockSession {
                #expect(observers.metrics.all.count == 1, "\(observers.metrics.all.count) metrics calls")
            }
            seen += observers.everything
            #expect(
                MatrixSecrets.shown(in: seen).isEmpty,
                "\(way) to /\(route.rawValue) showed \(MatrixSecrets.shown(in: seen))")
        }
    }

    @Test("cancelling a send over a MockSession ends it with NetworkError.cancelled", arguments: SendWay.allCases)
    func cancellation(way: SendWay) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let network = Double.mockSession.makeNetwork(observers: MatrixObservers())
        let send = Task { try await way.run(request(.silent), through: network, folder: folder.url) }
        try await Task.sleep(for: .milliseconds(50))
        send.cancel()
        expectCancelled(await send.result, of: way)
        try await waitUntil { network.activeRequestCount == 0 }
    }
}
