import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Multipart uploads end to end", .timeLimit(.minutes(1)))
struct MultipartUploadTests {
    @Test(
        "a field, a file from memory and a file from disk reach the server part by part, byte for byte",
        arguments: [
            // The default threshold encodes this form in memory; 0 streams it through a temporary file.
            10_000_000, 0,
        ])
    func formArrivesPartByPart(memoryThreshold: Int) async throws {
        try await sendForm(memoryThreshold: memoryThreshold)
    }

    private func sendForm(memoryThreshold: Int) async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                let photo = Data.sample(count: 3 * 1_048_576 + 5)
                let photoURL = try write(photo, to: directory.appendingPathComponent("sunset.jpg"))
                // Content that looks like the start of a boundary must not end the part.
                let notes = Data("first line\r\n--not a boundary\r\n".utf8)
                let caption = "Sunset at the \"beach\" ☀️"
                var form = MultipartFormData()
                form.memoryThreshold = memoryThreshold
                form.append(caption, name: "caption")
                form.append(notes, name: "notes", fileName: "notes.txt", contentType: "text/plain")
                form.append(fileAt: photoURL, name: "photo", contentType: "image/jpeg")

                let receipt = try await client.send(FormUploadRequest(form: form))

                #expect(
                    receipt.parts == [
                        ReceivedPart(
                            name: "caption", byteCount: caption.utf8.count, checksum: CRC32.checksum(of: caption.utf8),
                            value: caption),
                        ReceivedPart(
                            name: "notes", fileName: "notes.txt", contentType: "text/plain", byteCount: notes.count,
                            checksum: CRC32.checksum(of: notes)),
                        ReceivedPart(
                            name: "photo", fileName: "sunset.jpg", contentType: "image/jpeg", byteCount: photo.count,
                            checksum: CRC32.checksum(of: photo)),
                    ])
                let recorded = try #require(await server.recorder.requests(path: "/upload/form").last)
                #expect(recorded.headers.values(for: "Content-Type") == [form.contentType])
                // In memory or from a file, on every platform, the form goes with its length: the
                // transport sends a form written to disk with the file's size.
                let length = try #require(recorded.headers.values(for: "Content-Length").first.flatMap { Int($0) })
                #expect(length > photo.count + notes.count)
                #expect(recorded.headers["Transfer-Encoding"] == nil)
            }
        }
    }

    @Test("upload progress counts the form's bytes up to its Content-Length")
    func uploadProgress() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            var form = MultipartFormData()
            form.append("Sunset", name: "caption")
            form.append(
                Data.sample(count: 3 * 1_048_576), name: "photo", fileName: "sunset.jpg", contentType: "image/jpeg")
            let (updates, handler) = TransferProgressHandler.makeStream(bufferingPolicy: .unbounded)

            async let receipt = client.network.send(FormUploadRequest(form: form), progress: handler)
            var reports: [TransferProgress] = []
            for await progress in updates {
                reports.append(progress)
            }

            #expect(try await receipt.part(named: "photo")?.byteCount == 3 * 1_048_576)
            let recorded = try #require(await server.recorder.requests(path: "/upload/form").last)
            let length = try #require(recorded.headers["Content-Length"].flatMap { Int64($0) })
            let uploads = reports.filter { $0.direction == .upload }
            #expect(uploads.count > 1, "3 MB go up in more than one piece")
            #expect(uploads.map(\.completedByteCount) == uploads.map(\.completedByteCount).sorted())
            #expect(uploads.last?.completedByteCount == length)
            #expect(uploads.allSatisfy { $0.expectedByteCount == length })
        }
    }

    @Test("a form the server cannot read is a 400 carrying the server's reason")
    func malformedFormIsRejected() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            // Cut before the closing boundary, as a client that gave up halfway would leave it.
            let truncated = Data("--b\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nSunset".utf8)
            let request = NetworkRequest(
                method: .post, url: server.baseURL.appendingPathComponent("upload/form"),
                body: .data(truncated, contentType: "multipart/form-data; boundary=b"))

            let error = await #expect(throws: NetworkError.self) {
                try await client.network.send(request)
            }

            #expect(error?.statusCode == 400)
            let body = try #require(error?.decodeBody(APIError.self))
            #expect(body.message == "The form ended before its closing boundary.")
        }
    }

    @Test("a part whose file is missing fails the send before anything reaches the server")
    func missingFileIsRefusedBeforeSending() async throws {
        try await withDemoServer { server in
            try await withTemporaryDirectory { directory in
                let client = makeClient(for: server)
                var form = MultipartFormData()
                form.append("Sunset", name: "caption")
                form.append(fileAt: directory.appendingPathComponent("gone.jpg"), name: "photo")

                let error = await #expect(throws: NetworkError.self) {
                    try await client.send(FormUploadRequest(form: form))
                }

                guard case .invalidRequest? = error else {
                    Issue.record("expected invalidRequest, got \(String(describing: error))")
                    return
                }
                #expect(await server.recorder.requests(path: "/upload/form").isEmpty)
            }
        }
    }
}
