import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Downloads to a file end to end", .timeLimit(.minutes(1)))
struct DownloadTests {
    @Test("the body lands in the file byte for byte, with progress up to its length, and no temporary file is left")
    func downloadWritesTheFile() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                let byteCount = 3_000_017
                let destination = directory.appendingPathComponent("large.bin")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let (updates, handler) = TransferProgressHandler.makeStream(bufferingPolicy: .unbounded)

                let file = try await client.network.download(
                    BigDownloadRequest(bytes: byteCount), to: destination, progress: handler)
                var reports: [TransferProgress] = []
                for await progress in updates {
                    reports.append(progress)
                }

                #expect(file.fileURL == destination)
                #expect(file.byteCount == Int64(byteCount))
                #expect(file.response.statusCode == 200)
                #expect(try Data(contentsOf: destination) == LargeFileContent.prefix(byteCount))
                #expect(fileNames(in: directory) == ["large.bin"])
                let permissions = try FileManager.default.attributesOfItem(atPath: destination.path)[.posixPermissions]
                #expect(
                    (permissions as? NSNumber)?.intValue == 0o600, "a downloaded file is readable by its user alone")

                #expect(reports.count > 1, "a 3 MB body arrives in more than one piece")
                #expect(reports.allSatisfy { $0.direction == .download && $0.expectedByteCount == Int64(byteCount) })
                let counts = reports.map(\.completedByteCount)
                #expect(counts == counts.sorted() && Set(counts).count == counts.count, "progress only moves forward")
                #expect(reports.last?.completedByteCount == Int64(byteCount))
                #expect(reports.last?.fractionCompleted == 1)
            }
        }
    }

    @Test(
        "a server failing mid-body leaves the file already at the destination as it was, and only a private partial file"
    )
    func failureMidBodyLeavesTheDestinationUntouched() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                let previous = Data("the report as downloaded yesterday".utf8)
                let destination = try write(previous, to: directory.appendingPathComponent("report.bin"))

                let resumeData = try await keptAfterBreak(
                    client, BigDownloadRequest(bytes: 2_000_000, failAfter: 1_000_000), to: destination)
                report("download cut after 1 MB of 2 MB kept \(resumeData.byteCount) bytes to resume")

                #expect(try Data(contentsOf: destination) == previous)
                #expect(
                    fileNames(in: directory) == [resumeData.partialFileURL.lastPathComponent, "report.bin"].sorted())
                let permissions = try FileManager.default.attributesOfItem(atPath: resumeData.partialFileURL.path)[
                    .posixPermissions]
                #expect((permissions as? NSNumber)?.intValue == 0o600)
                // Not resumed: the caller removes the partial file, and the same download, whole,
                // replaces the old file.
                resumeData.removePartialFile()
                let file = try await client.network.download(BigDownloadRequest(bytes: 2_000_000), to: destination)
                #expect(file.byteCount == 2_000_000)
                #expect(fileNames(in: directory) == ["report.bin"])
            }
        }
    }

    @Test("an error status writes no file and carries the server's body")
    func errorStatusWritesNothing() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let request = NetworkRequest(url: server.baseURL.appendingPathComponent("status/404"))

                let error = await #expect(throws: NetworkError.self) {
                    try await client.network.download(request, to: directory.appendingPathComponent("missing.bin"))
                }

                #expect(error?.statusCode == 404)
                #expect(error?.decodeBody(APIError.self)?.error == "http_404")
                #expect(fileNames(in: directory).isEmpty)
            }
        }
    }
}
