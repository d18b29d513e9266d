import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// Downloads to a file over every transport, on a real socket: the file appears whole or not at
/// all, and a file already at the destination survives a failed download.
@Suite("Downloads to a file", .timeLimit(.minutes(2)))
final class DownloadTests: Sendable {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The test's folder goes with it, whatever the test left there.
    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private func request(_ path: String, on server: LoopbackHTTPServer) -> NetworkRequest {
        NetworkRequest(url: server.baseURL.appendingPathComponent(path))
    }

    /// The names in the download folder, to show that no temporary file is left behind.
    private var folderContents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
    }

    @Test(
        "a 5 MB body lands whole, private to the user, with no temporary file left", arguments: TransportKind.allCases)
    func whole(_ kind: TransportKind) async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("big.bin")
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let file = try await network.download(request("big", on: server), to: destination)
            #expect(file.fileURL == destination)
            #expect(file.byteCount == Int64(TransportTestRoutes.fiveMegabytes.count))
            #expect(file.response.statusCode == 200)
        }
        #expect(try Data(contentsOf: destination) == TransportTestRoutes.fiveMegabytes)
        let permissions = try FileManager.default.attributesOfItem(atPath: destination.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(folderContents == ["big.bin"])
    }

    /// The flush itself cannot be seen from here (only a power loss would show it); what this
    /// checks is that the flushing path (the file's `fsync`, the rename, the folder's `fsync`)
    /// puts the file in place whole, as the default path does.
    @Test(
        "with flushesToDisk, a 5 MB body replaces the old file whole, private to the user, with no temporary file left",
        arguments: TransportKind.allCases)
    func flushed(_ kind: TransportKind) async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("flushed.bin")
        try Data("the old file".utf8).write(to: destination)
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let file = try await network.download(
                request("big", on: server), to: destination, options: DownloadOptions(flushesToDisk: true))
            #expect(file.byteCount == Int64(TransportTestRoutes.fiveMegabytes.count))
        }
        #expect(try Data(contentsOf: destination) == TransportTestRoutes.fiveMegabytes)
        let permissions = try FileManager.default.attributesOfItem(atPath: destination.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(folderContents == ["flushed.bin"])
    }

    @Test(
        "a body that stalls fails, leaves no file, and keeps the file that was there", arguments: TransportKind.allCases
    )
    func stalled(_ kind: TransportKind) async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("report.pdf")
        try Data("the old report".utf8).write(to: destination)
        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.streamIdleTimeout = .milliseconds(300) }) {
            network in
            let error = await networkError {
                _ = try await network.download(request("stall", on: server), to: destination)
            }
            guard case .timedOut? = error else {
                Issue.record("expected timedOut, got \(String(describing: error))")
                return
            }
        }
        #expect(try String(contentsOf: destination, encoding: .utf8) == "the old report")
        #expect(folderContents == ["report.pdf"])
    }

    /// Over `URLSessionTransport` on Linux the wire cannot be paused, so a streamed body's reader
    /// that falls behind has its bytes kept in a spill file, up to a limit (4 MiB here, with 1 MiB
    /// in memory before it, far from the 16 MiB body). A download writes each chunk where the
    /// transport delivers it instead: however slowly its task would run (here a progress handler
    /// that takes half a millisecond a report), it never falls behind the wire. The body is held
    /// back until the network has the head (a response-began action opens the gate), so that
    /// what is measured is the transfer once the download takes it over, not what a busy machine
    /// (a ThreadSanitizer run beside a build) lets arrive while the request is still being sent:
    /// holding the body only until the download's file existed let more than 5 MiB through there.
    @Test("a download over URLSession keeps the transfer's pace, however slow its task: nothing spills")
    func keepsPace() async throws {
        let body = steppedBytes(count: 16 * TransportTestRoutes.megabyte, every: 7)
        let gate = DispatchSemaphore(value: 0)
        let head = Data("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
        let server = try LoopbackHTTPServer { _ in .raw(head, gate: gate, rest: body) }
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral, maximumSpillSize: 4 * 1_048_576)
        defer { transport.invalidate() }
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
        network.add(action: HeadGate(gate: gate))
        let destination = directory.appendingPathComponent("paced.bin")
        let reports = Counter()
        let download = Task {
            try await network.download(
                request("paced", on: server), to: destination,
                progress: TransferProgressHandler { _ in
                    reports.increment()
                    Thread.sleep(forTimeInterval: 0.000_5)
                })
        }
        let file = try await download.value
        #expect(file.byteCount == Int64(body.count))
        #expect(try Data(contentsOf: destination) == body)
        #expect(reports.count > 1)
    }

    // Linux alone: FoundationNetworking cannot pause a transfer, so what arrives while the head
    // is held is kept in a spill file; Apple platforms pause the transfer instead, and keep none.
    #if AsyncHTTPClient
        /// Where async-http-client's event loop resumes the download with a chunk, the chunk is
        /// written: on the executor for blocking work, which is none of the concurrency runtime's
        /// threads, with no hop to another task (the progress report runs where the write did).
        // Task executors, which the push runs on, are there from these releases (and on Linux).
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        @Test(
            "over AsyncHTTPClientTransport each chunk is written off the concurrency runtime's threads",
            arguments: [TransportKind.asyncHTTPClient, .asyncHTTPClientStreamed])
        func writesOffRuntimeThreads(_ kind: TransportKind) async throws {
            let server = try TransportTestRoutes.server()
            defer { server.stop() }
            let destination = directory.appendingPathComponent("pushed.bin")
            let places = Log<Bool>()
            try await kind.withNetwork(baseURL: server.baseURL) { network in
                let file = try await network.download(
                    request("big", on: server), to: destination,
                    progress: TransferProgressHandler { _ in places.append(BlockingWorkExecutor.isCurrent) })
                #expect(file.byteCount == Int64(TransportTestRoutes.fiveMegabytes.count))
            }
            #expect(try Data(contentsOf: destination) == TransportTestRoutes.fiveMegabytes)
            #expect(places.all.count > 1)
            #expect(places.all.allSatisfy { $0 }, "\(places.all.filter { !$0 }.count) of \(places.all.count) elsewhere")
        }
    #endif

    @Test("a cancelled download leaves no file", arguments: TransportKind.allCases)
    func cancelled(_ kind: TransportKind) async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("never.bin")
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let download = Task { try await network.download(request("stall", on: server), to: destination) }
            try await waitUntil { folderContents.count == 1 }
            download.cancel()
            let error = await networkError { _ = try await download.value }
            #expect(error?.isCancellation == true, "got \(String(describing: error))")
        }
        #expect(folderContents.isEmpty)
    }

    @Test("a failing status writes nothing and carries the error body", arguments: TransportKind.allCases)
    func failingStatus(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 404, body: Data("no such report".utf8)) }
        defer { server.stop() }
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let error = await networkError {
                _ = try await network.download(
                    request("missing", on: server), to: directory.appendingPathComponent("x"))
            }
            guard case .unacceptableStatusCode(let response)? = error else {
                Issue.record("expected unacceptableStatusCode, got \(String(describing: error))")
                return
            }
            #expect(String(decoding: response.body, as: UTF8.self) == "no such report")
        }
        #expect(folderContents.isEmpty)
    }

    @Test("a destination that is not a file URL fails before anything is sent, and writes nothing")
    func nonFileDestination() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        // Only its path would have been used: this wrote the download folder's `x`.
        let destination = URL(string: "https://127.0.0.1\(directory.appendingPathComponent("x").path)")!
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            let error = await networkError {
                _ = try await network.download(request("hello", on: server), to: destination)
            }
            guard case .invalidRequest(let reason)? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("file URL"))
            #expect(!reason.contains("127.0.0.1"), "the URL may carry a secret: \(reason)")
            #expect(network.activeRequestCount == 0)
        }
        #expect(server.acceptedConnectionCount == 0)
        #expect(folderContents.isEmpty)
    }

    @Test("a directory at the destination fails before anything is sent, and is left as it was")
    func directoryDestination() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            let error = await networkError {
                _ = try await network.download(request("big", on: server), to: destination)
            }
            guard case .invalidRequest(let reason)? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("directory"))
        }
        #expect(server.acceptedConnectionCount == 0)
        #expect(folderContents == ["folder"])
    }

    @Test(
        "a destination whose name is as long as a name may be still gets its temporary file",
        arguments: TransportKind.allCases)
    func longestName(_ kind: TransportKind) async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        // 255 bytes, NAME_MAX: with the temporary file's prefix and suffix around it, the name
        // would not fit unless shortened. Two-byte characters, so shortening must respect them.
        let name = String(repeating: "é", count: 124) + ".binary"
        #expect(name.utf8.count == 255)
        let destination = directory.appendingPathComponent(name)
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let file = try await network.download(request("big", on: server), to: destination)
            #expect(file.byteCount == Int64(TransportTestRoutes.fiveMegabytes.count))
        }
        #expect(folderContents == [name])
        #expect(DownloadFile.temporaryName(for: name).utf8.count <= 255)
    }

    /// Over AsyncHTTPClient the body is read (not pushed) and written a batch at a time; over
    /// URLSession each chunk is written where it arrives.
    @Test(
        "a body written in several batches lands byte for byte, in a file that replaced the old one",
        arguments: TransportKind.allCases)
    func batches(_ kind: TransportKind) async throws {
        // Neither a multiple of the batch size nor of any chunk size, with every byte value.
        let body = Data((0..<(FileDownload.batchSize * 3 + 12_345)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let server = try LoopbackHTTPServer { _ in .response(status: 200, body: body) }
        defer { server.stop() }
        let destination = directory.appendingPathComponent("batches.bin")
        try Data("the old file".utf8).write(to: destination)
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let file = try await network.download(request("batches", on: server), to: destination)
            #expect(file.byteCount == Int64(body.count))
        }
        #expect(try Data(contentsOf: destination) == body)
        #expect(folderContents == ["batches.bin"])
    }

    @Test("a folder that does not exist is a DownloadError, not a crash")
    func missingFolder() async throws {
        let server = try TransportTestRoutes.server()
        defer { server.stop() }
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            let destination = directory.appendingPathComponent("missing/folder/file.bin")
            do {
                _ = try await network.download(request("hello", on: server), to: destination)
                Issue.record("the download succeeded")
            } catch let error as DownloadError {
                guard case .cannotCreateFile = error else {
                    Issue.record("expected cannotCreateFile, got \(error)")
                    return
                }
            }
            #expect(network.activeRequestCount == 0)
        }
    }
}
