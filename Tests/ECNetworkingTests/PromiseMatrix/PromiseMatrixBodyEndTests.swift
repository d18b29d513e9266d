import ECNetworking
import Foundation
import TestSupport
import Testing

#if Tracing
    import Tracing
#endif

/// A streamed send (a stream, a download, an OpenAPI operation) returns at its head and goes on
/// with its body. It ends when the body ends, and every observer hears of that end: a download that
/// breaks after its head is a failure with its status and the bytes that came, never a success
/// recorded at the head.
@Suite("Promise matrix: a streamed send ends when its body ends, for every observer")
struct PromiseMatrixBodyEndTests {
    /// The ways to send whose body arrives after the send has returned its head.
    static let streamedWays: [SendWay] = SendWay.allCases.filter { [.stream, .download].contains($0) || $0.isOpenAPI }

    /// How many body bytes the server sends before it falls silent.
    private static let prefixCount = 400

    @Test(
        "a body that stops after its head fails the send for the caller, the metrics hook (with its status and bytes), the failure actions, the failure log, a span and swift-metrics",
        arguments: streamedWays, TransportKind.allCases)
    func brokenBodyIsAFailure(way: SendWay, kind: TransportKind) async throws {
        // A head promising 1,000 bytes, 400 of them, then the connection closed: TCP hands over
        // the head and the 400 bytes before the close, so the body breaks after its head, over
        // any transport and however loaded the machine.
        let head = Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n".utf8)
        let observers = MatrixObservers()
        let reply = LoopbackHTTPServer.Reply.raw(head + Data(repeating: UInt8(ascii: "a"), count: Self.prefixCount))
        try await Self.withObservedNetwork(kind, answering: reply, observers: observers) { network, request, folder in
            await #expect(throws: NetworkError.self) {
                try await way.run(request, through: network, folder: folder)
            }
        }

        let metrics = observers.metrics.all
        #expect(metrics.count == 1, "\(way): \(metrics.count) metrics calls")
        let ended = try #require(metrics.first)
        #expect(ended.statusCode == 200, "\(way): the head's status is kept")
        #expect(
            ended.responseBodyByteCount == Int64(Self.prefixCount),
            "\(way): \(String(describing: ended.responseBodyByteCount)) bytes")
        switch ended.error {
        case let error as NetworkError where !error.isCancellation: break
        default: Issue.record("\(way): the metrics hook got \(String(describing: ended.error))")
        }
        #expect(observers.failures.all.count == 1, "\(way): \(observers.failures.all.count) failure calls")
        let failureLines = observers.logLines.all.filter {
            $0.contains("/file") && $0.localizedCaseInsensitiveContains("fail")
        }
        #expect(failureLines.count == 1, "\(way): \(failureLines)")
        #if Tracing
            let sendSpans = observers.tracer.spans.all.filter { $0.attributes["http.response.status_code"] != nil }
            #expect(!sendSpans.isEmpty, "\(way): no span has the status")
            #expect(
                sendSpans.allSatisfy { !$0.errors.isEmpty || $0.status?.code == .error },
                "\(way): a span ended as a success")
        #endif
        #if Metrics
            let send = observers.metricsFactory.timers(label: "ecnetworking.client.send.duration").flatMap(\.dimensions)
            #expect(send.contains { $0 == ("http.response.status_class", "2xx") }, "\(way): \(send)")
            #expect(send.contains { $0 == ("outcome", "failure") }, "\(way): \(send)")
            // The request itself, measured to the end of its body: its status, and the failure.
            let request = observers.metricsFactory.timers(label: "http.client.request.duration")
            #expect(request.flatMap(\.values).count == 1, "\(way): \(request.map(\.dimensions))")
            let dimensions = request.flatMap(\.dimensions)
            #expect(dimensions.contains { $0 == ("http.response.status_code", "200") }, "\(way): \(dimensions)")
            #expect(dimensions.contains { $0.0 == "error.type" }, "\(way): \(dimensions)")
        #endif
    }

    @Test(
        "a streamed send that reads its body to the end is reported once, after the body, with its bytes",
        arguments: streamedWays, TransportKind.allCases)
    func wholeBodyIsReportedAtItsEnd(way: SendWay, kind: TransportKind) async throws {
        let body = Data(repeating: UInt8(ascii: "b"), count: 3_000)
        let observers = MatrixObservers()
        try await Self.withObservedNetwork(kind, answering: .response(status: 200, body: body), observers: observers) {
            network, request, folder in
            if way == .stream {
                let stream = try await network.stream(request)
                // The body has not been read: the send has not ended.
                #expect(observers.metrics.all.isEmpty)
                #expect(try await stream.collect() == body)
            } else {
                let outcome = try await way.run(request, through: network, folder: folder)
                #expect(outcome.body == body)
            }
        }

        let metrics = observers.metrics.all
        #expect(metrics.count == 1)
        #expect(metrics.first?.error == nil)
        #expect(metrics.first?.statusCode == 200)
        #expect(metrics.first?.responseBodyByteCount == Int64(body.count))
        #expect(observers.failures.all.isEmpty)
    }

    @Test("a stream let go before its body ends is reported once, as cancelled", arguments: TransportKind.allCases)
    func streamLetGoIsCancelled(kind: TransportKind) async throws {
        let observers = MatrixObservers()
        let reply = LoopbackHTTPServer.Reply.stall(
            status: 200, declaredLength: 1_000_000, prefix: Data(repeating: UInt8(ascii: "c"), count: 100))
        try await Self.withObservedNetwork(kind, answering: reply, observers: observers) { network, request, _ in
            do {
                let stream = try await network.stream(request)
                #expect(stream.response.statusCode == 200)
            }
            try await waitUntil { observers.metrics.all.count == 1 }
        }

        let ended = try #require(observers.metrics.all.first)
        #expect(ended.statusCode == 200)
        #expect((ended.error as? NetworkError)?.isCancellation == true, "\(String(describing: ended.error))")
        #expect(observers.failures.all.count == 1)
        try await Task.sleep(for: .milliseconds(50))
        #expect(observers.metrics.all.count == 1)
    }

    /// Runs `body` with a network of `kind` that `observers` watch (every observer, and a failure
    /// action), a request for `/file` of a server that answers every request with `reply`, and a
    /// scratch folder.
    private static func withObservedNetwork(
        _ kind: TransportKind, answering reply: LoopbackHTTPServer.Reply, observers: MatrixObservers,
        _ body: (URLSessionNetwork, NetworkRequest, URL) async throws -> Void
    ) async throws {
        let server = try LoopbackHTTPServer { _ in reply }
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try await kind.withNetwork(baseURL: server.baseURL, configure: observers.observe) { network in
            network.add(action: observers.failureAction)
            try await body(network, NetworkRequest(url: server.baseURL.appendingPathComponent("file")), folder.url)
        }
    }
}
