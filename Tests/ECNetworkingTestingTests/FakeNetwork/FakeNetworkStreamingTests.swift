import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

/// Streamed stubs: a body that arrives in pieces, with pauses, that fails part-way, and scripts that
/// answer a resumed download's `Range` and a subscription's `Last-Event-ID`, with no server.
@Suite("FakeNetwork streams bodies in pieces", .timeLimit(.minutes(1)))
struct FakeNetworkStreamingTests {
    private struct Report: Request {
        typealias Response = Data
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("report"))
        }
    }

    private struct Feed: Request {
        typealias Response = Void
        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("feed"))
        }
    }

    private static let baseURL = URL(string: "https://api.example.com/")!
    private static let body = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) })

    @Test("a stream reads the pieces in order as they come, with progress up to the whole length")
    func piecesInOrder() async throws {
        let fake = FakeNetwork(baseURL: Self.baseURL)
        fake.stub(Report.self, streaming: .body(Self.body, chunkSize: 1_000, every: .milliseconds(20)))
        let (updates, handler) = TransferProgressHandler.makeStream(bufferingPolicy: .unbounded)
        let clock = ContinuousClock()
        let start = clock.now

        let stream = try await fake.stream(Report(), priority: .normal, progress: handler)
        let headAfter = clock.now - start
        var chunks: [Data] = []
        for try await chunk in stream { chunks.append(chunk) }
        let elapsed = clock.now - start
        var reports: [TransferProgress] = []
        for await report in updates { reports.append(report) }

        #expect(stream.statusCode == 200)
        #expect(chunks.count == 10 && chunks.reduce(Data(), +) == Self.body)
        // The head comes at once; the ten pauses come with the body.
        #expect(headAfter < elapsed && elapsed >= .milliseconds(200))
        #expect(reports.last?.completedByteCount == Int64(Self.body.count))
        #expect(reports.last?.expectedByteCount == Int64(Self.body.count))
        #expect(reports.count > 1)
    }

    @Test("a body that breaks part-way delivers what came before, then the error; a send of it fails")
    func breaksPartWay() async throws {
        let fake = FakeNetwork(baseURL: Self.baseURL)
        fake.stub(Report.self, streaming: .body(Self.body, chunkSize: 1_000).breaking(after: 2_500))
        let stream = try await fake.stream(Report())
        var received = Data()
        do {
            for try await chunk in stream { received.append(chunk) }
            Issue.record("the broken body ended well")
        } catch NetworkError.transport(let error) {
            #expect(error.code == .networkConnectionLost)
        }
        #expect(received == Self.body.prefix(2_500))

        await #expect(throws: NetworkError.self) { _ = try await fake.send(Report()) }
        fake.stub(Report.self, streaming: .body(Self.body, chunkSize: 1_000))
        #expect(try await fake.send(Report()) == Self.body)
    }

    @Test("a download that breaks resumes against a script that serves Range and If-Range, with no server")
    func resumedDownload() async throws {
        let fake = FakeNetwork(baseURL: Self.baseURL)
        let body = Self.body
        fake.stub(Report.self) { request in
            guard let range = request.headers["Range"], request.headers["If-Range"] == "\"r1\"",
                let offset = Int(range.dropFirst("bytes=".count).dropLast())
            else {
                return .body(body, chunkSize: 1_000, headers: ["ETag": "\"r1\""]).breaking(after: 3_000)
            }
            return .body(
                body.suffix(from: offset), statusCode: 206,
                headers: ["ETag": "\"r1\"", "Content-Range": "bytes \(offset)-\(body.count - 1)/\(body.count)"])
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fake-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("report.bin")

        var kept: ResumeData?
        do {
            _ = try await fake.download(Report(), to: destination, options: DownloadOptions(resumption: .never))
        } catch DownloadError.resumable(let resumeData, _) {
            kept = resumeData
        }
        let resumeData = try #require(kept)
        #expect(resumeData.byteCount == 3_000)

        let file = try await fake.download(Report(), resumingWith: resumeData)

        #expect(file.resumedByteCount == 3_000)
        #expect(file.response.statusCode == 206)
        #expect(try Data(contentsOf: destination) == body)
        #expect(fake.sentNetworkRequests.count == 2)
    }

    @Test("an event stream that drops reconnects with Last-Event-ID, and a script answers from there")
    func scriptedEvents() async throws {
        let fake = FakeNetwork(baseURL: Self.baseURL)
        fake.stub(Feed.self) { request in
            switch request.headers["Last-Event-ID"] {
            case nil:
                return .events([
                    ServerSentEvent(id: "1", data: "one", retry: .milliseconds(100)),
                    ServerSentEvent(id: "2", data: "two"),
                ])
                .breaking(after: 10_000)
            case "2": return .events([ServerSentEvent(id: "3", data: "three")])
            default: return FakeStream(statusCode: 204, chunks: [])
            }
        }

        var received: [String] = []
        let reconnection = ServerSentEventReconnection(delay: .milliseconds(100))
        for try await event in fake.serverSentEvents(Feed(), reconnection: reconnection) { received.append(event.data) }

        #expect(received == ["one", "two", "three"])
        let lastIDs = fake.sentNetworkRequests.map { $0.headers["Last-Event-ID"] }
        #expect(lastIDs == [nil, "2", "3"])
    }
}
