import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// Progress belongs to the send, on a real socket: a retry or a redirect that sends the body
/// again never takes the figure back, an error page is not counted, and each direction ends at
/// its total over its total exactly once.
@Suite("Transfer progress across attempts and hops", .timeLimit(.minutes(2)))
struct TransferProgressTests {
    private static let uploadSize = 2 * 1_048_576
    private static let answer = Data(repeating: 0x32, count: 5_000)

    /// A PUT, so that the retry policy retries it.
    private func put(_ path: String, on server: LoopbackHTTPServer) -> NetworkRequest {
        NetworkRequest(
            method: .put, url: server.baseURL.appendingPathComponent(path),
            body: .data(Data(repeating: 0x61, count: Self.uploadSize), contentType: nil))
    }

    /// Checks that `reports` of one direction rise, never lower their share, and end at `total`
    /// over `total`, reached once.
    private func expectForward(
        _ reports: [TransferProgress], _ direction: TransferProgress.Direction, total: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let reports = reports.filter { $0.direction == direction }
        let summary = "\(direction): \(reports.map { "\($0.completedByteCount)/\($0.expectedByteCount ?? -1)" })"
        #expect(!reports.isEmpty, "\(summary)", sourceLocation: sourceLocation)
        #expect(
            zip(reports, reports.dropFirst()).allSatisfy { $0.completedByteCount < $1.completedByteCount },
            "\(summary)", sourceLocation: sourceLocation)
        #expect(
            zip(reports, reports.dropFirst()).allSatisfy {
                ($0.fractionCompleted ?? 0) <= ($1.fractionCompleted ?? 1)
            }, "\(summary)", sourceLocation: sourceLocation)
        #expect(
            reports.allSatisfy { $0.expectedByteCount == Int64(total) }, "\(summary)", sourceLocation: sourceLocation)
        #expect(
            reports.filter { $0.completedByteCount == Int64(total) }.count == 1, "\(summary)",
            sourceLocation: sourceLocation)
        #expect(reports.last?.completedByteCount == Int64(total), "\(summary)", sourceLocation: sourceLocation)
    }

    @Test("a 503 retried, then a 200: forward only, the error page uncounted", arguments: TransportKind.allCases)
    func retried(_ kind: TransportKind) async throws {
        let requests = Counter()
        // The error page is longer than the answer, so counting it would take the figure back.
        let server = try LoopbackHTTPServer { _ in
            requests.increment() == 1
                ? .response(status: 503, body: Data(repeating: 0x35, count: 8_000))
                : .response(status: 200, body: Self.answer)
        }
        defer { server.stop() }
        try await kind.withNetwork(
            baseURL: server.baseURL,
            configure: { $0.retryPolicy = RetryPolicy(maximumAttempts: 2, baseDelay: .zero, jitter: 0) }
        ) { network in
            let (updates, handler) = TransferProgressHandler.makeStream(bufferingPolicy: .unbounded)
            let stream = try await network.stream(put("retried", on: server), priority: .normal, progress: handler)
            #expect(try await stream.collect() == Self.answer)
            var reports: [TransferProgress] = []
            for await progress in updates { reports.append(progress) }
            #expect(server.requests.count == 2)
            expectForward(reports, .upload, total: Self.uploadSize)
            expectForward(reports, .download, total: Self.answer.count)
        }
    }

    @Test("a 307 redirect that sends the body again does not restart it", arguments: TransportKind.allCases)
    func redirected(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { request in
            request.path.hasSuffix("/old")
                ? .response(status: 307, headers: ["Location": "/new"], body: Data(repeating: 0x33, count: 9_000))
                : .response(status: 200, body: Self.answer)
        }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let (updates, handler) = TransferProgressHandler.makeStream(bufferingPolicy: .unbounded)
            let file = try await network.download(
                put("old", on: server), to: directory.appendingPathComponent("answer"), progress: handler)
            #expect(file.byteCount == Int64(Self.answer.count))
            var reports: [TransferProgress] = []
            for await progress in updates { reports.append(progress) }
            #expect(server.requests.map(\.path) == ["/old", "/new"])
            #expect(server.requests.last?.body.count == Self.uploadSize)
            expectForward(reports, .upload, total: Self.uploadSize)
            expectForward(reports, .download, total: Self.answer.count)
        }
    }
}
