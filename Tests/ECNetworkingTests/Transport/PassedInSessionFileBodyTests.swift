#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
    import TestSupport
    import Testing

    @testable import ECNetworking

    /// A file body over a `URLSession` passed in on Linux: FoundationNetworking sends a body read
    /// from a stream chunked, which upload endpoints such as S3's pre-signed PUTs refuse with 411,
    /// and past or short of the file's size when it changes. The session's data task gets the
    /// library's stream of the file with its `Content-Length`, as ``URLSessionTransport`` sends it.
    @Suite("A file body over a URLSession passed in, on Linux", .timeLimit(.minutes(2)))
    struct PassedInSessionFileBodyTests {
        /// One session for the suite: FoundationNetworking crashes in libcurl's teardown when
        /// sessions come and go.
        private static let session = URLSession(configuration: .ephemeral)

        private let megabyte = TransportTestRoutes.megabyte

        /// A file of `size` bytes, sparse unless `contents` is given, in a folder of its own.
        private func makeFile(size: Int, contents: Data? = nil) throws -> URL {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "PassedInSessionFileBodyTests-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("upload.bin")
            _ = FileManager.default.createFile(atPath: file.path, contents: contents)
            if contents == nil { try FileBodySizeChangeTests.resize(file, to: size) }
            return file
        }

        @Test("the file goes out whole, with its Content-Length and not chunked")
        func sentWithLength() async throws {
            let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let file = try makeFile(size: contents.count, contents: contents)
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let server = try LoopbackHTTPServer { _ in .response(status: 204) }
            defer { server.stop() }
            let network = HTTPNetwork(configuration: .init(baseURL: server.baseURL), session: Self.session)
            defer { network.invalidate() }

            let request = NetworkRequest(
                method: .put, url: server.baseURL.appendingPathComponent("upload"), body: .file(at: file))
            let response = try await network.send(request)

            #expect(response.statusCode == 204)
            let received = try #require(server.requests.first)
            #expect(server.requests.count == 1)
            #expect(received.header("Content-Length") == String(contents.count))
            #expect(received.header("Transfer-Encoding") == nil)
            #expect(received.body == contents)
        }

        @Test(
            "a file that changes size while it is sent fails at once with invalidRequest, nothing past its length",
            arguments: FileBodySizeChangeTests.Change.allCases)
        func changesSize(_ change: FileBodySizeChangeTests.Change) async throws {
            let fileSize = 64 * megabyte
            let file = try makeFile(size: fileSize)
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let server = try UploadDrainServer(pauseAfter: megabyte)
            defer { server.stop() }
            let deadline: Duration = .seconds(30)
            var configuration = NetworkConfiguration(baseURL: server.baseURL)
            configuration.timeout = deadline
            let network = HTTPNetwork(configuration: configuration, session: Self.session)
            defer { network.invalidate() }

            let (error, changed) = try await FileBodySizeChangeTests.upload(
                file, over: network, to: server, changing: change)
            let ended = ContinuousClock.now

            guard case .invalidRequest(let reason)? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("changed size"), "\(reason)")
            #expect(ended - changed < deadline / 2)
            #expect(server.requestHeaders.first?["content-length"] == String(fileSize))
            #expect(server.requestHeaders.first?["transfer-encoding"] == nil)
            #expect(server.bodyByteCount >= megabyte, "part of the body went out")
            #expect(server.bodyByteCount < fileSize, "the whole file went out, then failed")
        }
    }
#endif
