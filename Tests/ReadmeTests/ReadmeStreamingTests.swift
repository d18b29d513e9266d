import ECNetworking
import Foundation
import TestSupport
import Testing

// The "Streamed responses and downloads" and Server-Sent Events snippets of the
// UploadsDownloadsAndStreams article, verbatim, run against a loopback server.

struct CompletionRequest: Request {
    typealias Response = Void
    let prompt: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            method: .post, url: baseURL.appendingPathComponent("completions"), body: .json(["prompt": prompt]))
    }
}

struct ReportRequest: Request {
    typealias Response = Data
    let year: Int

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("reports/\(year)"))
    }
}

struct PriceFeedRequest: Request {
    typealias Response = Void

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("prices"))
    }
}

@Suite("Article: streamed responses, downloads, progress and events")
struct ReadmeStreamingTests {
    private static let report = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })

    private static func server() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            switch request.path {
            case "/completions":
                return .response(
                    status: 200, headers: ["Content-Type": "application/x-ndjson"],
                    body: Data("{\"token\":\"Hel\"}\n{\"token\":\"lo\"}\n".utf8))
            case "/reports/2026":
                return .response(status: 200, headers: ["Content-Type": "application/pdf"], body: report)
            case "/photos":
                return .response(status: 201)
            case "/prices":
                let events = "id: 1\ndata: 101.5\n\nid: 2\ndata: 101.7\n\nid: 3\ndata: 101.2\n\n"
                return .response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data(events.utf8))
            default:
                return .response(status: 404)
            }
        }
    }

    @Test("a stream's lines arrive in order")
    func lines() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }

        let stream = try await network.stream(CompletionRequest(prompt: "Hello"))
        var tokens: [String] = []
        for try await line in stream.lines {
            tokens.append(line)
        }

        #expect(tokens == ["{\"token\":\"Hel\"}", "{\"token\":\"lo\"}"])
    }

    @Test("a download lands whole in its file, with the head")
    func download() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        let reportURL = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: reportURL) }

        let file = try await network.download(ReportRequest(year: 2026), to: reportURL)
        print(file.byteCount, file.response.headers["Content-Type"] ?? "")

        #expect(try Data(contentsOf: reportURL) == Self.report)
        #expect(file.byteCount == Int64(Self.report.count))
        #expect(file.response.headers["Content-Type"] == "application/pdf")
    }

    @Test("a Foundation Progress follows a download to its whole size, and ignores the other direction")
    func foundationProgress() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        let reportURL = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: reportURL) }

        let progress = Progress(totalUnitCount: 0)
        let file = try await network.download(
            ReportRequest(year: 2026), to: reportURL, progress: .updating(progress))

        #expect(file.byteCount == Int64(Self.report.count))
        #expect(progress.totalUnitCount == Int64(Self.report.count))
        #expect(progress.completedUnitCount == Int64(Self.report.count))
        #expect(progress.fractionCompleted == 1)

        let uploads = Progress(totalUnitCount: 0)
        let photoURL = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID().uuidString).jpg")
        try Data(repeating: 0xFF, count: 100_000).write(to: photoURL)
        defer { try? FileManager.default.removeItem(at: photoURL) }
        let downloadsOnly = Progress(totalUnitCount: 0)
        try await network.send(
            UploadPhotoRequest(photo: photoURL, caption: "Sunset"),
            progress: TransferProgressHandler { report in
                TransferProgressHandler.updating(uploads, direction: .upload).report(report)
                TransferProgressHandler.updating(downloadsOnly).report(report)
            })
        #expect(uploads.completedUnitCount > 100_000 && uploads.completedUnitCount == uploads.totalUnitCount)
        #expect(downloadsOnly.completedUnitCount < uploads.completedUnitCount)
    }

    @Test("a download named as the server suggests lands in the folder under that name")
    func suggestedName() async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(
                status: 200, headers: ["Content-Disposition": "attachment; filename=\"../annual-2026.pdf\""],
                body: Self.report)
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        let downloadsFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: downloadsFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: downloadsFolder) }

        let file = try await network.download(ReportRequest(year: 2026), to: .suggestedName(in: downloadsFolder))
        print(file.fileURL.lastPathComponent)

        #expect(file.fileURL == downloadsFolder.appendingPathComponent("annual-2026.pdf"))
        #expect(try Data(contentsOf: file.fileURL) == Self.report)
    }

    /// A server whose first answer to the report breaks after 100,000 bytes (with an `ETag`) and
    /// whose later ones serve the range asked for.
    private static func breakingServer() throws -> LoopbackHTTPServer {
        let answered = Counter()
        return try LoopbackHTTPServer { request in
            guard answered.increment() > 1 else {
                var head = Data("HTTP/1.1 200 OK\r\nContent-Length: \(report.count)\r\nETag: \"r1\"\r\n\r\n".utf8)
                head.append(report.prefix(100_000))
                return .raw(head)
            }
            let offset = request.header("Range").flatMap { Int($0.dropFirst("bytes=".count).dropLast()) } ?? 0
            return .response(
                status: 206,
                headers: ["Content-Range": "bytes \(offset)-\(report.count - 1)/\(report.count)", "ETag": "\"r1\""],
                body: report.suffix(from: offset))
        }
    }

    @Test("a broken download resumes from its resume data, and a policy resumes one on its own")
    func resumedDownload() async throws {
        let reportURL = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: reportURL) }
        var server = try Self.breakingServer()
        defer { server.stop() }
        var network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))

        do {
            _ = try await network.download(ReportRequest(year: 2026), to: reportURL)
        } catch DownloadError.resumable(let resumeData, _) {
            // Later, perhaps after a relaunch: ResumeData is Codable.
            let file = try await network.download(ReportRequest(year: 2026), resumingWith: resumeData)
            print("resumed from byte", file.resumedByteCount)
        }

        #expect(try Data(contentsOf: reportURL) == Self.report)
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.header("If-Range") == "\"r1\"")
        network.invalidate()
        server.stop()

        server = try Self.breakingServer()
        network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        var options = DownloadOptions()
        options.resumption = .policy(RetryPolicy(maximumAttempts: 5))
        let file = try await network.download(ReportRequest(year: 2026), to: reportURL, options: options)

        #expect(file.resumedByteCount == 100_000)
        #expect(try Data(contentsOf: reportURL) == Self.report)
    }

    @Test("upload progress reaches the photo's whole size, by closure and by sequence")
    func progress() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }
        let photoURL = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID().uuidString).jpg")
        try Data(repeating: 0xFF, count: 200_000).write(to: photoURL)
        defer { try? FileManager.default.removeItem(at: photoURL) }
        let fractions = Log<Double>()

        try await network.send(
            UploadPhotoRequest(photo: photoURL, caption: "Sunset"),
            progress: TransferProgressHandler { progress in
                if progress.direction == .upload, let fraction = progress.fractionCompleted {
                    fractions.append(fraction)
                }
            })
        #expect(fractions.all.last == 1)

        var sent: [Int64] = []
        let (updates, handler) = TransferProgressHandler.makeStream()
        async let upload: Void = network.send(UploadPhotoRequest(photo: photoURL, caption: "Sunset"), progress: handler)
        for await progress in updates where progress.direction == .upload {
            sent.append(progress.completedByteCount)
        }
        try await upload
        #expect(sent.last ?? 0 > 200_000)
    }

    @Test("a subscription's events arrive in order")
    func events() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: .init(baseURL: server.baseURL))
        defer { network.invalidate() }

        var prices: [String] = []
        let feed = network.serverSentEvents(PriceFeedRequest(), reconnection: ServerSentEventReconnection())
        for try await event in feed {
            prices.append(event.data)
            if prices.count == 3 { break }
        }

        #expect(prices == ["101.5", "101.7", "101.2"])
    }
}
