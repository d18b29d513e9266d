#if AsyncHTTPClient
    @testable import ECNetworking
    import Foundation
    import TestSupport
    import Testing

    @Suite("Uploads over AsyncHTTPClientTransport against a loopback server", .timeLimit(.minutes(2)))
    struct UploadAsyncHTTPClientTests {
        @Test("multipart from a temporary file, a file, and a stream of unknown length arrive whole")
        func uploads() async throws {
            let server = try LoopbackHTTPServer { _ in .response(status: 204) }
            defer { server.stop() }
            let contents = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            let file = try makeTemporaryFile(contents, name: "data.bin")
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let transport = AsyncHTTPClientTransport()
            let network = URLSessionNetwork(
                configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            var form = MultipartFormData(boundary: "b")
            form.memoryThreshold = 0
            form.append(fileAt: file, name: "file")
            let chunks = [Data("one,".utf8), Data("two".utf8)]

            _ = try await network.send(NetworkRequest(method: .post, url: server.baseURL, body: .multipart(form)))
            _ = try await network.send(NetworkRequest(method: .put, url: server.baseURL, body: .file(at: file)))
            _ = try await network.send(
                NetworkRequest(method: .post, url: server.baseURL, body: .stream(chunkStream(chunks))))
            try await transport.shutdown()

            let received = server.requests
            #expect(received.count == 3)
            let multipart = try form.encodedInMemory()
            #expect(received.first?.body == multipart)
            #expect(received.first?.header("Content-Length") == String(multipart.count))
            #expect(received.dropFirst().first?.body == contents)
            #expect(received.dropFirst().first?.header("Content-Length") == String(contents.count))
            #expect(received.last?.body == Data("one,two".utf8))
            #expect(received.last?.header("Transfer-Encoding") == "chunked")
        }
    }
#endif
