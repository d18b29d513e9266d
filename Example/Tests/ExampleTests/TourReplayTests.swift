import DemoClient
import DemoServer
import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@testable import Example

/// The whole tour recorded as a HAR file against the embedded server (`--record-har`), then
/// replayed from that file once the server has stopped (`--replay-har`): the file is HAR 1.2 as a
/// browser's network panel reads it, holds no secret, and answers every step's requests, streams,
/// event streams, downloads and the resumed one included, through the tour's own clients.
@Suite("The tour recorded as HAR, then replayed with no server", .timeLimit(.minutes(2)))
struct TourReplayTests {
    @Test("the tour's HAR file follows HAR 1.2, keeps no secret, and replays the tour green with the server stopped")
    func recordThenReplay() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("tour.har")
            let recorder = Tour.makeArchiveRecorder()
            var token = ""
            try await withDemoServer { server in
                let tour = Tour(
                    baseURL: server.baseURL, recorder: server.recorder, console: TourConsole(write: { _ in }),
                    archiveRecorder: recorder)
                try await tour.run()
                token = await tour.client.token?.token ?? ""
            }
            try await recorder.write(to: file)

            let data = try Data(contentsOf: file)
            let violations = HTTPArchive.schemaViolations(in: data)
            #expect(violations.isEmpty, "\(violations)")
            let text = String(decoding: data, as: UTF8.self)
            #expect(!token.isEmpty && !text.contains(token))
            #expect(!text.contains(Credentials.demo.password))
            let archive = try HTTPArchive(contentsOf: file)
            let paths = Set(archive.log.entries.compactMap { URL(string: $0.request.url)?.path })
            for path in ["/login", "/users", "/flaky", "/catalog", "/upload/form", "/events", "/files/large"] {
                #expect(paths.contains(path), "no \(path) in \(paths.sorted())")
            }
            // The download the server broke halfway: recorded with what came, and the error.
            #expect(archive.log.entries.contains { $0.error != nil && $0.request.url.contains("/files/large") })

            let output = LineCollector()
            try await Tour(replaying: archive, console: TourConsole(write: output.append)).run()
            let lines = output.lines
            #expect(lines.first?.hasSuffix(", no server") == true)
            #expect(lines.last == "Tour complete: every step behaved as expected.")
            #expect(lines.contains("  ✓ the retry policy waited for Retry-After before the second attempt"))
            #expect(lines.contains("    [completed] 304 GET /catalog"))
            #expect(lines.contains("  → server read part photo: sunset.jpg, image/jpeg, 4194304 bytes"))
            #expect(lines.contains("  → 2 connections; the reconnection sent Last-Event-ID: [\"2\"]"))
            #expect(lines.contains("  ✓ only the missing half was sent again, and the file is whole"))
            #expect(lines.filter { $0.hasPrefix("== ") && $0.contains("skipped") }.count == 2)
        }
    }
}
