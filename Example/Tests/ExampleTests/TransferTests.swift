import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Large bodies", .timeLimit(.minutes(1)))
struct TransferTests {
    @Test("a 5 MB body goes to the server and comes back byte for byte")
    func fiveMegabyteRoundTrip() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let body = Data.sample(count: 5 * 1_048_576)

            let echoed = try await client.send(EchoUploadRequest(body: body))

            #expect(echoed.count == body.count)
            #expect(echoed == body)
        }
    }

    @Test("a file goes to the server as the body, read from disk, framed by its length, never chunked")
    func fileUpload() async throws {
        try await uploadFile()
    }

    private func uploadFile() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                let file = try write(
                    Data.sample(count: 2 * 1_048_576 + 3), to: directory.appendingPathComponent("a.bin"))

                let receipt = try await client.send(FileUploadRequest(file: file))

                #expect(receipt == UploadReceipt(bytes: 2 * 1_048_576 + 3))
                let recorded = try #require(await server.recorder.requests(path: "/upload").last)
                // Framed by its length on every platform (the file's size), never chunked.
                #expect(recorded.headers.values(for: "Content-Length") == ["\(2 * 1_048_576 + 3)"])
                #expect(recorded.headers["Transfer-Encoding"] == nil)
            }
        }
    }
}
