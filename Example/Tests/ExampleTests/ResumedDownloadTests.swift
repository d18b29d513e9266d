import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Downloads that break and resume, end to end", .timeLimit(.minutes(2)))
struct ResumedDownloadTests {
    @Test("a download broken mid-body resumes from where it stopped, and the file is the server's byte for byte")
    func resumes() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let destination = directory.appendingPathComponent("large.bin")
                let byteCount = 3_000_017

                let kept = try await keptAfterBreak(
                    client, BigDownloadRequest(bytes: byteCount, failAfter: 1_500_000), to: destination)
                #expect(kept.byteCount > 0 && kept.byteCount <= 1_500_000)
                #expect(kept.expectedByteCount == Int64(byteCount))

                let file = try await client.network.download(
                    BigDownloadRequest(bytes: byteCount, failAfter: 1_500_000), resumingWith: kept)
                report("resumed at byte \(file.resumedByteCount) of \(byteCount)")

                #expect(file.response.statusCode == 206)
                #expect(file.resumedByteCount == kept.byteCount)
                #expect(file.byteCount == Int64(byteCount))
                #expect(try Data(contentsOf: destination) == LargeFileContent.prefix(byteCount))
                #expect(fileNames(in: directory) == ["large.bin"])
                let requests = await server.recorder.requests(path: "/files/large")
                #expect(requests.count == 2)
                #expect(requests.last?.headers["range"] == "bytes=\(kept.byteCount)-")
                #expect(requests.last?.headers["if-range"] == "\"large-\(byteCount)-v1\"")
            }
        }
    }

    @Test("a body whose ETag changed while it was broken starts over, and the file is the new one")
    func changedETagStartsOver() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let destination = directory.appendingPathComponent("large.bin")
                let kept = try await keptAfterBreak(
                    client, BigDownloadRequest(bytes: 1_000_000, failAfter: 400_000), to: destination)

                // The server now has version 2 of the file: its If-Range no longer matches.
                let file = try await client.network.download(
                    BigDownloadRequest(bytes: 1_200_000, version: 2), resumingWith: kept)

                #expect(file.response.statusCode == 200)
                #expect(file.resumedByteCount == 0)
                #expect(try Data(contentsOf: destination) == LargeFileContent.prefix(1_200_000))
                #expect(fileNames(in: directory) == ["large.bin"])
            }
        }
    }

    @Test("a retry policy resumes a broken body on its own")
    func automaticResumption() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let destination = directory.appendingPathComponent("large.bin")
                let options = DownloadOptions(resumption: .policy(RetryPolicy(baseDelay: .milliseconds(20))))

                let file = try await client.network.download(
                    BigDownloadRequest(bytes: 2_000_000, failAfter: 700_000), to: destination, options: options)

                #expect(file.resumedByteCount > 0)
                #expect(try Data(contentsOf: destination) == LargeFileContent.prefix(2_000_000))
            }
        }
    }

    @Test("a Content-Disposition name with ../ lands in the folder asked for, under its last component")
    func suggestedNameIsSanitised() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                let folder = directory.appendingPathComponent("downloads")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

                let file = try await client.network.download(
                    BigDownloadRequest(bytes: 10_000, suggestedName: "../../escaped.bin"),
                    to: .suggestedName(in: folder))

                #expect(file.fileURL == folder.appendingPathComponent("escaped.bin"))
                #expect(fileNames(in: folder) == ["escaped.bin"])
                #expect(fileNames(in: directory) == ["downloads"])
                #expect(try Data(contentsOf: file.fileURL) == LargeFileContent.prefix(10_000))
            }
        }
    }

    @Test("100 concurrent downloads with a limit of 2 never have more than 2 bodies open at the server")
    func concurrencyLimit() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server) { $0.maximumConcurrentRequests = 2 }
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

                let files = try await concurrently(100) { index in
                    try await client.network.download(
                        BigDownloadRequest(bytes: 200_000), to: directory.appendingPathComponent("\(index).bin"))
                }

                let maximum = await server.recorder.maximumDownloadBodiesOpen
                report("100 downloads with a limit of 2: at most \(maximum) bodies open at the server")
                #expect(files.allSatisfy { $0.byteCount == 200_000 })
                #expect(maximum <= 2)
                #expect(maximum >= 1)
                #expect(fileNames(in: directory).count == 100)
            }
        }
    }
}

/// The resume data of `request`'s download to `destination`, which the server drops part-way; the
/// download gives up at the first break.
func keptAfterBreak(_ client: DemoClient, _ request: BigDownloadRequest, to destination: URL) async throws
    -> ResumeData
{
    do {
        _ = try await client.network.download(request, to: destination, options: DownloadOptions(resumption: .never))
    } catch DownloadError.resumable(let kept, let cause) {
        #expect(cause is NetworkError, "the break's cause is the send's error")
        return kept
    }
    throw ResumeExpected()
}

/// The download the server drops part-way succeeded, or kept nothing to resume.
struct ResumeExpected: Error {}
