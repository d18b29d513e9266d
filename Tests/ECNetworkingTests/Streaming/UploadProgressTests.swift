import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// Upload progress through every transport the package ships, on a real socket: reports rise to
/// the body's whole length and never past it, for a body in memory, a file and a stream.
@Suite("Upload progress", .timeLimit(.minutes(2)))
struct UploadProgressTests {
    private static let size = 3 * 1_048_576

    private struct Upload: Request {
        typealias Response = Data
        let body: RequestBody

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(method: .post, url: baseURL.appendingPathComponent("upload"), body: body)
        }
    }

    private func uploads(
        _ body: RequestBody, over kind: TransportKind
    ) async throws -> (reports: [TransferProgress], received: Int) {
        let server = try LoopbackHTTPServer { request in
            .response(status: 200, body: Data(String(request.body.count).utf8))
        }
        defer { server.stop() }
        return try await kind.withNetwork(baseURL: server.baseURL) { network in
            let (updates, handler) = TransferProgressHandler.makeStream(bufferingPolicy: .unbounded)
            let reply = try await network.send(Upload(body: body), progress: handler)
            var reports: [TransferProgress] = []
            for await progress in updates where progress.direction == .upload { reports.append(progress) }
            return (reports, Int(String(decoding: reply, as: UTF8.self)) ?? -1)
        }
    }

    private func expectComplete(_ reports: [TransferProgress], expected: Int64?) {
        #expect(!reports.isEmpty)
        #expect(reports.last?.completedByteCount == Int64(Self.size))
        #expect(
            reports.allSatisfy { $0.expectedByteCount == expected }, "\(reports.prefix(3)) ... \(reports.suffix(2))")
        #expect(reports.allSatisfy { ($0.fractionCompleted ?? 0) <= 1 })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.completedByteCount <= $1.completedByteCount })
    }

    @Test("a body in memory", arguments: TransportKind.allCases)
    func memory(_ kind: TransportKind) async throws {
        let (reports, received) = try await uploads(.data(Data(repeating: 0x61, count: Self.size)), over: kind)
        #expect(received == Self.size)
        expectComplete(reports, expected: Int64(Self.size))
    }

    @Test("a file", arguments: TransportKind.allCases)
    func file(_ kind: TransportKind) async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID().uuidString)")
        try Data(repeating: 0x62, count: Self.size).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let (reports, received) = try await uploads(.file(at: url), over: kind)
        #expect(received == Self.size)
        expectComplete(reports, expected: Int64(Self.size))
    }
}
