import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A recorder keeps a streamed body (a stream, Server-Sent Events, a download) as the caller reads
/// it, and a replay answers with it: whole when it arrived whole, broken off again where it broke.
@Suite("HAR recording of streamed bodies", .timeLimit(.minutes(1)))
struct HTTPArchiveStreamedBodyTests {
    private static let events = "id: 1\ndata: one\n\nid: 2\ndata: two\n\n"
    /// Events whose data carries a planted secret, in a field the logs' rules redact.
    private static let secretEvents = #"data: {"user":"ada","password":"SECRET-SSE-PASSWORD"}"# + "\n\n"
    /// What the broken route sends before it closes the connection: fewer bytes than it announced.
    private static let partial = Data(repeating: 0x61, count: 40_000)

    private static func server() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            if request.path.hasPrefix("/events") {
                return .response(
                    status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(Self.events.utf8))
            }
            if request.path.hasPrefix("/secret-events") {
                return .response(
                    status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(Self.secretEvents.utf8))
            }
            if request.path.hasPrefix("/big") {
                return .response(
                    status: 200, headers: ["Content-Type": "application/octet-stream"],
                    body: Data(repeating: 0x62, count: 5_000))
            }
            let head = "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nETag: \"v1\"\r\nConnection: close\r\n\r\n"
            return .raw(Data(head.utf8) + Self.partial)
        }
    }

    private static func drain(_ stream: ResponseStream) async throws -> Data {
        var received = Data()
        for try await chunk in stream { received.append(chunk) }
        return received
    }

    /// Waits until `recorder` holds `count` entries: a streamed body's entry is added when the body
    /// ends, which may be a moment after the reader saw its end.
    private static func entries(of recorder: HTTPArchiveRecorder, count: Int) async throws -> [HTTPArchive.Entry] {
        for _ in 0..<200 where recorder.archive.log.entries.count < count {
            try await Task.sleep(for: .milliseconds(10))
        }
        return recorder.archive.log.entries
    }

    @Test(
        "a stream's body is kept as it was read, one cut short says so, one that broke records its bytes and error",
        arguments: TransportKind.allCases)
    func recording(_ kind: TransportKind) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let recorder = HTTPArchiveRecorder(maximumStreamedBodySize: 1_000)
        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.archiveRecorder = recorder }) { network in
            let events = try await network.stream(NetworkRequest(url: server.baseURL.appendingPathComponent("events")))
            #expect(try await Self.drain(events) == Data(Self.events.utf8))
            let big = try await network.stream(NetworkRequest(url: server.baseURL.appendingPathComponent("big")))
            #expect(try await Self.drain(big).count == 5_000)
            let broken = try await network.stream(NetworkRequest(url: server.baseURL.appendingPathComponent("cut")))
            await #expect(throws: NetworkError.self) { _ = try await Self.drain(broken) }
            let secret = try await network.stream(
                NetworkRequest(url: server.baseURL.appendingPathComponent("secret-events")))
            #expect(try await Self.drain(secret) == Data(Self.secretEvents.utf8))
        }
        let all = try await Self.entries(of: recorder, count: 4)
        let text = String(decoding: try recorder.archive.encoded(), as: UTF8.self)
        #expect(!text.contains("SECRET-SSE-PASSWORD"))
        #expect(all.last?.response.content.text?.contains(#""password":"<redacted>""#) == true)
        let entries = Array(all.prefix(3))
        #expect(entries.map { URL(string: $0.request.url)?.path } == ["/events", "/big", "/cut"])
        #expect(entries[0].response.content.text == Self.events)
        #expect(entries[0].response.content.size == Self.events.utf8.count)
        #expect(entries[0].error == nil && entries[0].response.content.comment == nil)
        #expect(entries[1].response.content.text == String(repeating: "b", count: 1_000))
        #expect(entries[1].response.content.size == 5_000)
        #expect(entries[1].response.content.comment?.contains("1000 of 5000") == true)
        #expect(entries[1].error == nil)
        // Async-http-client reads no further than its reader, so the bytes before the break may be
        // fewer than were sent; never more, and the error is there.
        #expect(entries[2].error?.isEmpty == false, "\(String(describing: entries[2].error))")
        #expect(entries[2].response.content.size > 0 && entries[2].response.content.size <= Self.partial.count)
        #expect(HTTPArchive.schemaViolations(in: try recorder.archive.encoded()).isEmpty)
        #expect(String(decoding: try recorder.archive.encoded(), as: UTF8.self).contains(#""_error""#))
    }

    @Test(
        "a replay answers a stream and Server-Sent Events with the recorded body; a broken one breaks off again where it broke"
    )
    func replay() async throws {
        let server = try Self.server()
        let recorder = HTTPArchiveRecorder()
        let baseURL = server.baseURL
        try await TransportKind.urlSession.withNetwork(
            baseURL: baseURL, configure: { $0.archiveRecorder = recorder }
        ) { network in
            _ = try await Self.drain(
                try await network.stream(NetworkRequest(url: baseURL.appendingPathComponent("events"))))
            let broken = try await network.stream(NetworkRequest(url: baseURL.appendingPathComponent("cut")))
            _ = try? await Self.drain(broken)
        }
        let archive = HTTPArchive(entries: try await Self.entries(of: recorder, count: 2))
        server.stop()

        let fake = FakeNetwork(replaying: archive, configuration: NetworkConfiguration(baseURL: baseURL))
        let stream = try await fake.stream(NetworkRequest(url: baseURL.appendingPathComponent("events")))
        #expect(try await Self.drain(stream) == Data(Self.events.utf8))
        var events: [ServerSentEvent] = []
        for try await event in try await fake.stream(NetworkRequest(url: baseURL.appendingPathComponent("events")))
            .serverSentEvents()
        {
            events.append(event)
        }
        #expect(events.map(\.id) == ["1", "2"] && events.map(\.data) == ["one", "two"])

        // FakeNetwork hands a stream its body whole, as it does every body: one that broke off fails.
        await #expect(throws: NetworkError.self) {
            _ = try await fake.stream(NetworkRequest(url: baseURL.appendingPathComponent("cut")))
        }
        await #expect(throws: NetworkError.self) {
            try await fake.send(NetworkRequest(url: baseURL.appendingPathComponent("cut")))
        }

        // A real network over the replaying session streams it, and breaks it off where it broke.
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: baseURL), session: MockSession(replaying: archive))
        let replayedBreak = try await network.stream(NetworkRequest(url: baseURL.appendingPathComponent("cut")))
        var received = 0
        let error = await #expect(throws: NetworkError.self) {
            for try await chunk in replayedBreak { received += chunk.count }
        }
        #expect(received == Self.partial.count)
        #expect(error?.transportCode == .networkConnectionLost, "\(String(describing: error))")
        #expect(
            try await Self.drain(
                try await network.stream(NetworkRequest(url: baseURL.appendingPathComponent("events"))))
                == Data(Self.events.utf8))
    }
}

extension HTTPArchive {
    /// An archive of `entries`.
    fileprivate init(entries: [Entry]) {
        self.init()
        log.entries = entries
    }
}
