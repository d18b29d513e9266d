import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// Downloads from servers whose framing lies (more or fewer bytes than their
/// `Content-Length`, a length that is no number, a range that makes no sense) and to destinations
/// that cannot be written. Each must end promptly with the file whole or a typed error and nothing
/// left at the destination: never a hang, a crash, or a file that is not the body.
///
/// libcurl reads a `Content-Length` such as `0x5` or `2abc` by the digits it starts with and ends
/// the body there: over `URLSessionTransport` (and a `URLSession` passed in) the library fails
/// such a response rather than succeed with a truncated body.
@Suite("Hostile peers: downloads whose framing lies", .timeLimit(.minutes(2)))
final class HostileDownloadTests: Sendable {
    private let folder: ScratchFolder
    private let clock = ContinuousClock()

    init() throws {
        folder = try ScratchFolder()
    }

    deinit { folder.remove() }

    private var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()) ?? []
    }

    /// Downloads from a server that writes `reply` on each connection (then, with `keepsOpen`, waits
    /// for the client to go), to `name` in the folder.
    private func download(
        _ reply: String, keepsOpen: Bool = false, over kind: TransportKind, to destination: URL? = nil
    ) async throws -> (result: Result<DownloadedFile, any Error>, elapsed: Duration, destination: URL) {
        let server = try HostilePeerServer { connection in
            guard connection.readHead() != nil else { return }
            connection.write(reply)
            if keepsOpen { connection.waitWithoutReading() }
        }
        defer { server.stop() }
        let destination = destination ?? folder.url.appendingPathComponent("file.bin")
        return try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.timeout = .seconds(20) }) {
            network in
            let start = clock.now
            let result: Result<DownloadedFile, any Error>
            do {
                result = .success(
                    try await network.download(
                        NetworkRequest(url: server.baseURL.appendingPathComponent("file")), to: destination))
            } catch {
                result = .failure(error)
            }
            return (result, clock.now - start, destination)
        }
    }

    @Test(
        "a body longer than its Content-Length keeps exactly Content-Length bytes, whether the server closes or not",
        arguments: [false, true], TransportKind.allCases)
    func longerThanDeclared(keepsOpen: Bool, _ kind: TransportKind) async throws {
        let reply = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello, and then some more bytes"
        let (result, elapsed, destination) = try await download(reply, keepsOpen: keepsOpen, over: kind)
        #expect(elapsed < .seconds(10), "\(kind) keepsOpen \(keepsOpen): took \(elapsed)")
        let file = try result.get()
        #expect(file.byteCount == 5)
        #expect(try Data(contentsOf: destination) == Data("hello".utf8))
        #expect(contents == ["file.bin"])
    }

    @Test(
        "a body shorter than its Content-Length, then a close, fails typed and leaves nothing",
        arguments: TransportKind.allCases)
    func shorterThanDeclared(_ kind: TransportKind) async throws {
        let reply = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nhello"
        let (result, elapsed, _) = try await download(reply, over: kind)
        #expect(elapsed < .seconds(10), "\(kind): took \(elapsed)")
        switch result {
        case .success(let file): Issue.record("\(kind): succeeded with \(file.byteCount) bytes")
        case .failure(let error):
            #expect(error is NetworkError || error is DownloadError, "\(kind): \(type(of: error)) \(error)")
            if case NetworkError.timedOut = error { Issue.record("\(kind): waited for its deadline") }
        }
        #expect(contents == [], "\(kind): left \(contents)")
    }

    @Test(
        "a Content-Length that is negative, not a number, or two values in one field fails typed, or keeps the body whole, promptly",
        arguments: ["-1", "abc", "5, 10", "5 5", "0x5", "+5", "99999999999999999999999"], TransportKind.allCases)
    func malformedLength(_ value: String, _ kind: TransportKind) async throws {
        let reply = "HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\nConnection: close\r\n\r\nhello"
        let (result, elapsed, destination) = try await download(reply, over: kind)
        #expect(elapsed < .seconds(10), "\(kind) \(value): took \(elapsed)")
        switch result {
        case .success(let file):
            // A lenient reading may keep the body up to the close; anything else is not the body.
            let kept = try Data(contentsOf: destination)
            #expect(
                kept == Data("hello".utf8),
                "\(kind) \(value): succeeded keeping \(file.byteCount) bytes, \(String(decoding: kept, as: UTF8.self).debugDescription)"
            )
        case .failure(let error):
            #expect(error is NetworkError || error is DownloadError, "\(kind) \(value): \(type(of: error)) \(error)")
            if case NetworkError.timedOut = error { Issue.record("\(kind) \(value): waited for its deadline") }
            #expect(contents == [], "\(kind) \(value): left \(contents)")
        }
    }

    @Test(
        "an unrequested 206 whose Content-Range is malformed or contradicts the body fails with unexpectedRange and keeps nothing",
        arguments: ["bytes garbage", "bytes 0-4/3", "bytes 4-0/5", "bytes 0-4/*", "items 0-4/5", "bytes 0-9/10"],
        TransportKind.allCases)
    func malformedRange(_ range: String, _ kind: TransportKind) async throws {
        let reply =
            "HTTP/1.1 206 Partial Content\r\nContent-Range: \(range)\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
        let (result, elapsed, _) = try await download(reply, over: kind)
        #expect(elapsed < .seconds(10), "\(kind) \(range): took \(elapsed)")
        switch result {
        case .success(let file):
            Issue.record("\(kind) \(range): succeeded with \(file.byteCount) bytes")
        case .failure(DownloadError.unexpectedRange):
            break
        case .failure(let error):
            Issue.record("\(kind) \(range): expected unexpectedRange, got \(type(of: error)) \(error)")
        }
        #expect(contents == [], "\(kind) \(range): left \(contents)")
    }

    @Test(
        "a destination whose folder is missing or is a file fails with cannotCreateFile, promptly, leaving nothing",
        arguments: ["missing/file.bin", "plain/file.bin"], TransportKind.allCases)
    func unwritableDestination(_ path: String, _ kind: TransportKind) async throws {
        try Data("a plain file".utf8).write(to: folder.url.appendingPathComponent("plain"))
        let reply = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
        let (result, elapsed, _) = try await download(
            reply, over: kind, to: folder.url.appendingPathComponent(path))
        #expect(elapsed < .seconds(10), "\(kind) \(path): took \(elapsed)")
        guard case .failure(DownloadError.cannotCreateFile) = result else {
            Issue.record("\(kind) \(path): expected cannotCreateFile, got \(result)")
            return
        }
        #expect(contents == ["plain"], "\(kind) \(path): left \(contents)")
    }

    @Test(
        "a plain send whose Content-Length is not a number (0x5, 1e3, 2abc) fails typed, or returns the body whole, never a prefix of it",
        arguments: ["0x5", "1e3", "2abc"], TransportKind.allCases)
    func lenientLengthOnSend(_ value: String, _ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in
            .raw(Data("HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\nConnection: close\r\n\r\nhello".utf8))
        }
        defer { server.stop() }
        let result: Result<NetworkResponse, any Error> = try await kind.withNetwork(
            baseURL: server.baseURL, configure: { $0.timeout = .seconds(10) }
        ) { network in
            do {
                return .success(try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("x"))))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let response):
            #expect(
                response.body == Data("hello".utf8),
                "\(kind) Content-Length \(value): succeeded with \(String(decoding: response.body, as: UTF8.self).debugDescription)"
            )
        case .failure(let error):
            #expect(error is NetworkError, "\(kind) \(value): \(type(of: error)) \(error)")
            if case NetworkError.timedOut = error { Issue.record("\(kind) \(value): waited for its deadline") }
        }
    }

    enum Picked: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case suggestedInMissingFolder, chosenUnderAFile, chosenNotAFileURL
        var testDescription: String { rawValue }
    }

    @Test(
        "a destination picked at the head that cannot be written fails typed, promptly, and leaves nothing",
        arguments: Picked.allCases, TransportKind.allCases)
    func unwritablePickedDestination(_ picked: Picked, _ kind: TransportKind) async throws {
        let root = folder.url
        try Data("a plain file".utf8).write(to: root.appendingPathComponent("plain"))
        let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Data("hello".utf8)) }
        defer { server.stop() }
        let destination: DownloadDestination =
            switch picked {
            case .suggestedInMissingFolder: .suggestedName(in: root.appendingPathComponent("missing"))
            case .chosenUnderAFile: .chosen { _, name in root.appendingPathComponent("plain/\(name)") }
            case .chosenNotAFileURL: .chosen { _, name in URL(string: "https://example.com/\(name)")! }
            }
        let start = clock.now
        let result: Result<DownloadedFile, any Error> = try await kind.withNetwork(
            baseURL: server.baseURL, configure: { $0.timeout = .seconds(10) }
        ) { network in
            do {
                return .success(
                    try await network.download(
                        NetworkRequest(url: server.baseURL.appendingPathComponent("report.csv")), to: destination))
            } catch {
                return .failure(error)
            }
        }
        #expect(clock.now - start < .seconds(5), "\(picked) \(kind): took \(clock.now - start)")
        switch result {
        case .failure(DownloadError.cannotCreateFile) where picked != .chosenNotAFileURL: break
        case .failure(NetworkError.invalidRequest) where picked == .chosenNotAFileURL: break
        case let other: Issue.record("\(picked) \(kind): got \(other)")
        }
        #expect(contents == ["plain"], "\(picked) \(kind): left \(contents)")
    }
}
