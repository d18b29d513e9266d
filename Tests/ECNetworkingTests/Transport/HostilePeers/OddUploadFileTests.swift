import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(Glibc)
    import Glibc
#endif

/// A file body that is not a plain readable file, or stops being one between the
/// check and the read. Each send must end with a typed error (or, for an empty file, succeed with
/// an empty body): never a hang, a crash or a body other than the file's.
///
/// A FIFO put in the file's place before a 307's second hop was opened with a blocking `open` on a
/// thread of the concurrency runtime over `AsyncHTTPClientTransport`, which stalled the whole
/// process; every file body is now opened without blocking and refused unless a regular file.
@Suite("Hostile peers: file bodies that are not plain files", .timeLimit(.minutes(2)))
struct OddUploadFileTests {
    private let clock = ContinuousClock()

    /// A server answering every request with 200 and the body length it read.
    private static func echoServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            .response(status: 200, body: Data("\(request.body.count) \(request.header("Content-Length") ?? "-")".utf8))
        }
    }

    enum OddFile: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case fifo, directory, devZero, devNull, symlinkToFIFO
        var testDescription: String { rawValue }

        func make(in folder: ScratchFolder) throws -> URL {
            switch self {
            case .fifo:
                let url = folder.url.appendingPathComponent("fifo")
                #expect(mkfifo(url.path, 0o600) == 0)
                return url
            case .directory:
                return folder.url
            case .devZero:
                return URL(fileURLWithPath: "/dev/zero")
            case .devNull:
                return URL(fileURLWithPath: "/dev/null")
            case .symlinkToFIFO:
                let fifo = folder.url.appendingPathComponent("fifo")
                #expect(mkfifo(fifo.path, 0o600) == 0)
                let link = folder.url.appendingPathComponent("link")
                try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fifo)
                return link
            }
        }
    }

    @Test(
        "a file body that is not a regular file fails at once with invalidRequest, and nothing is sent",
        arguments: OddFile.allCases, TransportKind.allCases)
    func notARegularFile(_ odd: OddFile, _ kind: TransportKind) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let server = try Self.echoServer()
        defer { server.stop() }
        let file = try odd.make(in: folder)
        let error = try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.timeout = .seconds(20) }) {
            network in
            await networkError {
                _ = try await network.send(
                    NetworkRequest(method: .put, url: server.baseURL.appendingPathComponent("u"), body: .file(at: file))
                )
            }
        }
        guard case .invalidRequest? = error else {
            Issue.record("\(odd) \(kind): expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(server.requests.isEmpty)
    }

    @Test(
        "a multipart part that is not a regular file fails at once with invalidRequest, and nothing is sent",
        arguments: [OddFile.fifo, .devZero, .directory], TransportKind.allCases)
    func multipartPartNotARegularFile(_ odd: OddFile, _ kind: TransportKind) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let server = try Self.echoServer()
        defer { server.stop() }
        let file = try odd.make(in: folder)
        var form = MultipartFormData()
        form.append(fileAt: file, name: "f", contentType: "application/octet-stream")
        let error = try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.timeout = .seconds(20) }) {
            network in
            await networkError {
                _ = try await network.send(
                    NetworkRequest(
                        method: .post, url: server.baseURL.appendingPathComponent("u"), body: .multipart(form)))
            }
        }
        guard case .invalidRequest? = error else {
            Issue.record("\(odd) \(kind): expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(server.requests.isEmpty)
    }

    @Test("an empty file goes out as an empty body with Content-Length 0", arguments: TransportKind.allCases)
    func emptyFile(_ kind: TransportKind) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let server = try Self.echoServer()
        defer { server.stop() }
        let file = try folder.file(size: 0)
        let response = try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.timeout = .seconds(20) }) {
            try await $0.send(
                NetworkRequest(method: .put, url: server.baseURL.appendingPathComponent("u"), body: .file(at: file)))
        }
        #expect(String(decoding: response.body, as: UTF8.self) == "0 0")
        #expect(server.requests.first?.header("Transfer-Encoding") == nil)
    }

    @Test(
        "a file unlinked while it is sent still goes out whole (the open file is read), or fails typed",
        arguments: TransportKind.allCases)
    func unlinkedWhileSent(_ kind: TransportKind) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let size = 32 * 1_048_576
        let file = try folder.file(size: size)
        let server = try UploadDrainServer(pauseAfter: 1_048_576, answersWhenComplete: true)
        defer { server.stop() }
        let outcome: Result<NetworkResponse, any Error> = try await kind.withNetwork(
            baseURL: server.baseURL, configure: { $0.timeout = .seconds(30) }
        ) { network in
            let send = Task {
                try await network.send(
                    NetworkRequest(method: .put, url: server.baseURL.appendingPathComponent("u"), body: .file(at: file))
                )
            }
            try await waitUntil { server.isPaused }
            try FileManager.default.removeItem(at: file)
            server.resume()
            return await send.result
        }
        switch outcome {
        case .success(let response):
            #expect(response.statusCode == 204)
            #expect(server.bodyByteCount == size)
        case .failure(let error):
            #expect(error is NetworkError, "\(kind): \(error)")
            if case NetworkError.timedOut = error { Issue.record("\(kind): waited for the deadline") }
        }
    }

    /// What the file is swapped for while the server answers the first hop with a 307.
    enum Swap: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case fifo, devZero
        var testDescription: String { rawValue }
    }

    @Test(
        "a file body swapped for a FIFO or /dev/zero before a 307 sends it again fails with a typed error before the deadline, and the process does not block",
        arguments: Swap.allCases, TransportKind.allCases)
    func swappedBeforeRedirect(_ swap: Swap, _ kind: TransportKind) async throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let file = try folder.file(size: 4_096)
        let server = try LoopbackHTTPServer { request in
            if request.path == "/first" {
                // The body is read; the file changes before the client sends it again.
                try? FileManager.default.removeItem(at: file)
                switch swap {
                case .fifo: _ = mkfifo(file.path, 0o600)
                case .devZero:
                    try? FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/dev/zero")
                }
                return .response(status: 307, headers: ["Location": "/second"])
            }
            return .response(status: 200, body: Data("\(request.body.count)".utf8))
        }
        defer { server.stop() }
        // A reader blocked opening the FIFO blocks a thread of the concurrency runtime's pool (two
        // threads on a 2-core machine): with both blocked, no deadline can fire and the process
        // stops. A plain thread releases such a reader after 8 s (opening the writing end succeeds
        // only while a reader waits), and says it had to.
        let finished = InlineLockedState(false)
        let released = InlineLockedState(false)
        if swap == .fifo {
            let path = file.path
            Thread {
                let end = Date().addingTimeInterval(8)
                while Date() < end, !finished.withLock({ $0 }) { usleep(20_000) }
                while !finished.withLock({ $0 }) {
                    let writer = open(path, O_WRONLY | O_NONBLOCK)
                    if writer >= 0 {
                        close(writer)
                        released.withLock { $0 = true }
                    }
                    usleep(100_000)
                }
            }.start()
        }
        defer { finished.withLock { $0 = true } }
        let start = clock.now
        let error = try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.timeout = .seconds(5) }) {
            network in
            await networkError {
                let response = try await network.send(
                    NetworkRequest(
                        method: .put, url: server.baseURL.appendingPathComponent("first"), body: .file(at: file)))
                Issue.record(
                    "\(swap) \(kind): succeeded, the second hop got \(String(decoding: response.body, as: UTF8.self)) bytes"
                )
            }
        }
        let elapsed = clock.now - start
        #expect(
            !released.withLock { $0 },
            "\(swap) \(kind): a thread stayed blocked opening the FIFO until the test released it")
        guard case .invalidRequest? = error else {
            Issue.record("\(swap) \(kind): expected invalidRequest, got \(String(describing: error)) after \(elapsed)")
            return
        }
        #expect(elapsed < .seconds(4), "\(swap) \(kind): took \(elapsed)")
    }
}
