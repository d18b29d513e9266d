import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A file body whose file grows or shrinks while it is sent: a request must never go out longer or
/// shorter than the `Content-Length` it announced, so every transport fails the send at once with
/// ``NetworkError/invalidRequest(reason:)``, part of the body having gone out, and nothing past the
/// announced length reaches the server.
///
/// The file is far larger than the loopback's socket buffers, and the server stops reading 1 MiB
/// in, so the transport is still reading the file when the test changes it; then the server reads
/// on until the client goes away, counting every byte, so a body sent past its length shows.
@Suite("A file body that changes size while it is sent", .timeLimit(.minutes(2)))
struct FileBodySizeChangeTests {
    enum Change: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Cut to half a megabyte, less than the server has already received.
        case shrinks
        /// A megabyte longer.
        case grows

        var testDescription: String { rawValue }
    }

    private let clock = ContinuousClock()
    private let megabyte = TransportTestRoutes.megabyte
    /// Far more than the socket buffers on both sides hold, so the transport has not read the
    /// whole file when the server pauses. Sparse, so it costs no disk.
    private let fileSize = 64 * TransportTestRoutes.megabyte

    /// PUTs `file` over `network` to `server` and changes its size once the server has paused;
    /// returns how the send ended and when the file changed.
    static func upload(
        _ file: URL, over network: URLSessionNetwork, to server: UploadDrainServer, changing change: Change
    ) async throws -> (error: NetworkError?, changed: ContinuousClock.Instant) {
        let request = NetworkRequest(
            method: .put, url: server.baseURL.appendingPathComponent("upload"), body: .file(at: file))
        let send = Task { try await network.send(request) }
        try await waitUntil { server.isPaused }
        let megabyte = TransportTestRoutes.megabyte
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        try resize(file, to: change == .shrinks ? megabyte / 2 : size + megabyte)
        let changed = ContinuousClock.now
        server.resume()
        return (await networkError { _ = try await send.value }, changed)
    }

    /// A sparse file of `fileSize` bytes in a folder of its own.
    private func makeFile() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("FileBodySizeChangeTests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("upload.bin")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        try Self.resize(file, to: fileSize)
        return file
    }

    /// Cuts or extends `file` to `size` bytes.
    static func resize(_ file: URL, to size: Int) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    @Test(
        "the send fails at once with invalidRequest, and the server gets the announced Content-Length, never chunked, and no byte past it",
        arguments: Change.allCases, TransportKind.allCases)
    func changesSize(_ change: Change, kind: TransportKind) async throws {
        let file = try makeFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let server = try UploadDrainServer(pauseAfter: megabyte)
        defer { server.stop() }

        // A deadline the send must not wait for: it ends when the transport meets the change.
        let deadline: Duration = .seconds(30)
        let (error, changed) = try await kind.withNetwork(
            baseURL: server.baseURL, configure: { $0.timeout = deadline }
        ) { network in
            try await Self.upload(file, over: network, to: server, changing: change)
        }
        let ended = clock.now

        if case .invalidRequest(let reason)? = error {
            // async-http-client itself refuses a body longer than its length, in words of its own.
            if change == .shrinks || kind.usesURLSession {
                #expect(reason.contains("changed size"), "\(reason)")
            }
        } else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
        }
        #expect(ended - changed < deadline / 2)
        let headers = server.requestHeaders
        #expect(headers.count == 1)
        #expect(headers.first?["content-length"] == String(fileSize))
        #expect(headers.first?["transfer-encoding"] == nil)
        #expect(server.bodyByteCount >= megabyte, "part of the body went out")
        #expect(server.bodyByteCount <= fileSize, "\(server.bodyByteCount - fileSize) bytes went out past the length")
        if kind.usesURLSession {
            // The library checks the size before every read, so the rest of the file never goes.
            #expect(server.bodyByteCount < fileSize, "the whole file went out, then failed")
        }
    }
}
