import DemoServer
import Foundation
import Testing

@Suite("GET /files/large and POST /upload")
struct TransferTests {
    @Test func largeFileReturnsExactlyTheRequestedBytes() async throws {
        try await withDemoServer { _, client in
            let byteCount = 1_000_003
            let response = try await client.get("/files/large?bytes=\(byteCount)")

            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/octet-stream")
            #expect(response.header("Content-Length") == "\(byteCount)")
            #expect(response.body.count == byteCount)
            #expect(response.body == LargeFileContent.prefix(byteCount))
        }
    }

    @Test func largeFileWithZeroBytesIsEmpty() async throws {
        try await withDemoServer { _, client in
            let response = try await client.get("/files/large?bytes=0")

            #expect(response.status == 200)
            #expect(response.body.isEmpty)
        }
    }

    @Test func largeFileWithFailAfterDropsTheConnectionShortOfItsLength() async throws {
        try await withDemoServer { _, client in
            // The head announced 2 MB and only 1 MB came: URLSession reports the connection lost.
            await #expect(throws: URLError.self) {
                try await client.get("/files/large?bytes=2000000&failAfter=1000000")
            }
            // Only a point inside the body makes sense.
            let outside = try await client.get("/files/large?bytes=100&failAfter=100")
            #expect(outside.status == 400)
        }
    }

    @Test func uploadCountsFiveMegabytes() async throws {
        try await withDemoServer { _, client in
            let body = LargeFileContent.prefix(5 * 1_024 * 1_024)
            let response = try await client.send(
                "POST",
                "/upload",
                headers: ["Content-Type": "application/octet-stream"],
                body: body
            )

            #expect(response.status == 200)
            #expect(try response.decode(UploadReceipt.self) == UploadReceipt(bytes: body.count))
        }
    }

    @Test func uploadEchoSendsTheBodyBack() async throws {
        try await withDemoServer { _, client in
            let body = LargeFileContent.prefix(5 * 1_024 * 1_024 + 7)
            let response = try await client.send(
                "POST",
                "/upload?echo=1",
                headers: ["Content-Type": "application/octet-stream"],
                body: body
            )

            #expect(response.status == 200)
            #expect(response.body == body)
        }
    }
}
