#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
    import Testing

    @testable import ECNetworking

    /// The stream `URLSessionTransport` hands FoundationNetworking for a body on Linux, read as
    /// FoundationNetworking's body source reads it: `hasBytesAvailable` first, then `read`.
    @Suite("The body stream URLSessionTransport hands libcurl")
    struct OwnedRequestBodyTests {
        /// Reads `stream` as FoundationNetworking does, until it says it has nothing more or fails:
        /// the bytes, and whether a read failed.
        private static func drain(_ stream: InputStream) -> (bytes: Data, failed: Bool) {
            var bytes = Data()
            var buffer = [UInt8](repeating: 0, count: 7)
            while stream.hasBytesAvailable {
                let count = stream.read(&buffer, maxLength: buffer.count)
                if count < 0 { return (bytes, true) }
                if count == 0 { break }
                bytes.append(contentsOf: buffer[..<count])
            }
            return (bytes, false)
        }

        /// The bytes every test sends.
        private static let contents = Data("a body of some bytes".utf8)

        /// A body of ``contents``, its stream opened and read to its end once, and what that read.
        private static func bodyReadOnce() -> (
            body: OwnedRequestBody, stream: InputStream, read: (bytes: Data, failed: Bool)
        ) {
            let body = OwnedRequestBody(bytes: contents)
            let stream = body.makeStream()
            stream.open()
            return (body, stream, drain(stream))
        }

        @Test(
            "a stream read whole gives its bytes and its end, with nothing stopped, and a resend a fresh stream of them"
        )
        func readWhole() {
            let (body, _, read) = Self.bodyReadOnce()
            #expect(read.bytes == Self.contents)
            #expect(!read.failed)
            #expect(body.failure == nil)
            // The fresh stream the session's delegate hands over for a resend gives the body whole.
            let resent = body.resentBody(method: .put)
            resent.open()
            #expect(Self.drain(resent).bytes == Self.contents)
        }

        @Test(
            "read again after its end, as libcurl sending the request again without a fresh stream would, it stops the transfer as a lost connection instead of ending an empty body"
        )
        func readAgainAfterItsEnd() {
            let (body, stream, _) = Self.bodyReadOnce()
            // The request goes out again and its body is read from the same stream.
            let again = Self.drain(stream)
            #expect(again.failed, "an ended stream read again must stop the transfer, not end a second, empty body")
            #expect(again.bytes.isEmpty)
            #expect(body.failure?.transportCode == .networkConnectionLost)
        }

        @Test("an empty body read again after its end is empty again: its head promised nothing")
        func emptyBodyReadAgain() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "OwnedRequestBodyTests-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("empty.bin")
            try Data().write(to: file)
            let body = OwnedRequestBody(file: file, length: 0)
            let stream = body.makeStream()
            stream.open()
            for _ in 0..<2 {
                let read = Self.drain(stream)
                #expect(read.bytes.isEmpty)
                #expect(!read.failed)
            }
            #expect(body.failure == nil)
        }
    }
#endif
