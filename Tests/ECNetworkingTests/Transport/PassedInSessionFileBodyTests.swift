#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
    import TestSupport
    import Testing

    @testable import ECNetworking

    /// A file body over a `URLSession` passed in on Linux: FoundationNetworking sends a body read
    /// from a stream chunked, which upload endpoints such as S3's pre-signed PUTs refuse with 411,
    /// and past or short of the file's size when it changes. The session's data task gets the
    /// library's stream of the file with its `Content-Length`, as ``URLSessionTransport`` sends it;
    /// a data body too, which FoundationNetworking cannot send again on a fresh connection.
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

        @Test(
            "sent again by libcurl on a fresh connection (the kept-alive one closed without an answer), a PUT of a file or of data fails at once as a lost connection: the session's delegate is not the library's, so the body cannot be had again, and the head must not go out promising it",
            arguments: [false, true])
        func resentOnFreshConnection(fromFile: Bool) async throws {
            let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let file = try makeFile(size: contents.count, contents: contents)
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let body: RequestBody =
                fromFile ? .file(at: file) : .data(contents, contentType: "application/octet-stream")
            let uploads = Counter()
            // The first upload comes on the connection the GET left open, read whole, then closed.
            let server = try LoopbackHTTPServer(keepsConnectionsOpen: true) { request in
                guard request.method == "PUT" else { return .response(status: 200, body: Data("warm".utf8)) }
                return uploads.increment() == 1 ? .raw(Data()) : .response(status: 204)
            }
            defer { server.stop() }
            let deadline: Duration = .seconds(20)
            var configuration = NetworkConfiguration(baseURL: server.baseURL)
            configuration.timeout = deadline
            // A session of its own: the connection the GET leaves open must be the one the PUT takes.
            let session = URLSession(configuration: .ephemeral)
            let network = HTTPNetwork(configuration: configuration, session: session)
            defer { network.invalidate() }

            _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("warm")))
            let started = ContinuousClock.now
            let request = NetworkRequest(
                method: .put, url: server.baseURL.appendingPathComponent("upload"), body: body)
            do {
                _ = try await network.send(request)
                Issue.record("the PUT whose connection closed without an answer succeeded")
            } catch let error as NetworkError {
                #expect(error.transportCode == .networkConnectionLost, "\(error); heads \(server.requestHeads)")
            }
            do {
                _ = try await network.send(request)
            } catch let error as NetworkError {
                // The second send, on a fresh connection, is answered: only the first one's resend fails.
                Issue.record("the second PUT failed too: \(error)")
            }
            #expect(ContinuousClock.now - started < deadline / 2, "heads \(server.requestHeads)")
            // Only whole requests reached the handler: a head without its body never does.
            #expect(server.requests.filter { $0.method == "PUT" }.allSatisfy { $0.body == contents })
        }

        @Test("with a retry policy, that PUT is sent again by the library, whole, and answered")
        func resentByRetryPolicy() async throws {
            let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let uploads = Counter()
            let server = try LoopbackHTTPServer(keepsConnectionsOpen: true) { request in
                guard request.method == "PUT" else { return .response(status: 200, body: Data("warm".utf8)) }
                return uploads.increment() == 1 ? .raw(Data()) : .response(status: 204)
            }
            defer { server.stop() }
            var configuration = NetworkConfiguration(baseURL: server.baseURL)
            configuration.timeout = .seconds(20)
            configuration.retryPolicy = RetryPolicy(baseDelay: .milliseconds(10))
            let network = HTTPNetwork(configuration: configuration, session: URLSession(configuration: .ephemeral))
            defer { network.invalidate() }

            _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("warm")))
            let started = ContinuousClock.now
            let response = try await network.send(
                NetworkRequest(
                    method: .put, url: server.baseURL.appendingPathComponent("upload"),
                    body: .data(contents, contentType: "application/octet-stream")))
            #expect(response.statusCode == 204)
            #expect(ContinuousClock.now - started < .seconds(10), "heads \(server.requestHeads)")
            let puts = server.requests.filter { $0.method == "PUT" }
            #expect(puts.count == 2)
            #expect(puts.allSatisfy { $0.body == contents })
        }
    }
#endif
