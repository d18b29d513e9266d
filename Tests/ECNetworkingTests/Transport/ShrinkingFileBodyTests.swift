import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// What each transport does with a file body that shrinks while it is sent, as the table in
/// Transports.md says: a request cannot go out shorter than the `Content-Length` it announced, and
/// the transports differ in how they give up.
///
/// The file is far larger than the loopback's socket buffers, and the server stops reading 1 MiB
/// in, so the transport is still reading the file when the test cuts it; then the server reads on,
/// so that only the missing bytes can hold the send up.
@Suite("A file body that shrinks while it is sent", .timeLimit(.minutes(1)))
struct ShrinkingFileBodyTests {
    private let clock = ContinuousClock()
    private let megabyte = TransportTestRoutes.megabyte
    /// Far more than the socket buffers on both sides hold, so the transport has not read the
    /// whole file when the server pauses. Sparse, so it costs no disk.
    private let fileSize = 64 * TransportTestRoutes.megabyte

    /// A sparse file of `fileSize` bytes in a folder of its own.
    private func makeFile() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ShrinkingFileBodyTests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("upload.bin")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(fileSize))
        try handle.close()
        return file
    }

    /// Cuts `file` to half a megabyte, less than the server has already received.
    private func shrink(_ file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(megabyte / 2))
        try handle.close()
    }

    /// Sends `file` with `PUT` to `server` over a network of `kind` with a `timeout` deadline; cuts
    /// the file once the server has paused, lets the server read on, and returns the error and when
    /// the file was cut, measured from the send.
    private func sendShrinking(
        _ file: URL, to server: UploadDrainServer, over kind: TransportKind, timeout: Duration
    ) async throws -> (error: NetworkError?, sendStart: ContinuousClock.Instant, shrunk: ContinuousClock.Instant) {
        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.timeout = timeout }) { network in
            let request = NetworkRequest(
                method: .put, url: server.baseURL.appendingPathComponent("upload"), body: .file(at: file))
            let sendStart = clock.now
            let send = Task { try await network.send(request) }
            try await waitUntil { server.isPaused }
            try shrink(file)
            let shrunk = clock.now
            server.resume()
            let error = await networkError { _ = try await send.value }
            return (error, sendStart, shrunk)
        }
    }

    #if canImport(FoundationNetworking)
        @Test("over URLSessionTransport on Linux the send waits for the missing bytes until its deadline")
        func urlSessionWaitsOutTheDeadline() async throws {
            // Long enough that the server pauses, and the file is cut, well before it passes, even
            // with the test process's other transfers holding FoundationNetworking's one queue
            // (3 s was not, in a full parallel run beside another build).
            let deadline: Duration = .seconds(10)
            let file = try makeFile()
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let server = try UploadDrainServer(pauseAfter: megabyte)
            defer { server.stop() }

            let (error, sendStart, shrunk) = try await sendShrinking(
                file, to: server, over: .urlSession, timeout: deadline)
            let ended = clock.now

            guard case .timedOut(let after)? = error else {
                Issue.record("expected timedOut, got \(String(describing: error))")
                return
            }
            #expect(after == deadline)
            #expect(shrunk - sendStart < deadline, "the file was cut before the deadline")
            // Not an early failure at the missing bytes: the deadline ended it.
            #expect(ended - sendStart >= deadline - .milliseconds(250), "ended after \(ended - sendStart)")
            #expect(ended - sendStart < deadline + promptBound)
            // The body never came whole, so the send waited for the bytes, not for an answer.
            #expect(server.bodyByteCount >= megabyte)
            #expect(server.bodyByteCount < fileSize)
        }
    #endif

    #if AsyncHTTPClient
        @Test(
            "over AsyncHTTPClientTransport the send fails at once with invalidRequest, though part of the body went out"
        )
        func asyncHTTPClientFailsAtOnce() async throws {
            let file = try makeFile()
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let server = try UploadDrainServer(pauseAfter: megabyte)
            defer { server.stop() }

            // A deadline the send must not wait for: it ends at the missing bytes.
            let (error, _, shrunk) = try await sendShrinking(
                file, to: server, over: .asyncHTTPClient, timeout: longDelay)
            let ended = clock.now

            guard case .invalidRequest(let reason)? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("changed size"), "\(reason)")
            #expect(ended - shrunk < promptBound)
            #expect(server.bodyByteCount >= megabyte, "part of the body went out")
            #expect(server.bodyByteCount < fileSize)
        }
    #endif
}
