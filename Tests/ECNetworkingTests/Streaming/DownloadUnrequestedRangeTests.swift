import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// Downloads that asked for no range, answered `206 Partial Content`, over every transport: a
/// part of the body is never saved as the whole file. Some proxies and misconfigured servers
/// answer every request with a range; the download succeeded with a file short of the body.
@Suite("Downloads answered with a range nobody asked for", .timeLimit(.minutes(2)))
final class DownloadUnrequestedRangeTests: Sendable {
    private let directory: URL
    private static let body = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The test's folder goes with it, whatever the test left there.
    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private var folderContents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
    }

    /// A server that answers `/<name>` with the `206` of that name, each with its
    /// `Content-Range` (if any) and the bytes it names.
    private static func partialServer() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let whole = "bytes 0-\(body.count - 1)/\(body.count)"
            return switch request.path {
            case "/elsewhere":
                .response(status: 206, headers: ["Content-Range": "bytes 100-199/1000"], body: body[100..<200])
            case "/short":
                .response(status: 206, headers: ["Content-Range": "bytes 0-99/1000"], body: body.prefix(100))
            case "/unknown-length":
                .response(status: 206, headers: ["Content-Range": "bytes 0-99/*"], body: body.prefix(100))
            case "/missing": .response(status: 206, body: body.prefix(100))
            case "/encoded":
                // Whole by its range, but the transport may decode it: the bytes written would not
                // be the bytes the range counts.
                .response(
                    status: 206, headers: ["Content-Range": whole, "Content-Encoding": "x-unknown"], body: body)
            case "/whole": .response(status: 206, headers: ["Content-Range": whole], body: body)
            default: .response(status: 404)
            }
        }
    }

    private func request(_ path: String, on server: LoopbackHTTPServer) -> NetworkRequest {
        NetworkRequest(url: server.baseURL.appendingPathComponent(path))
    }

    @Test(
        "a 206 for part of the body, to a download that asked for no range, fails typed and keeps nothing",
        arguments: TransportKind.allCases)
    func partOfTheBody(_ kind: TransportKind) async throws {
        let server = try Self.partialServer()
        defer { server.stop() }
        let answers: [(path: String, receivedOffset: Int64?)] = [
            ("elsewhere", 100), ("short", nil), ("unknown-length", nil), ("missing", nil), ("encoded", nil),
        ]
        let destination = directory.appendingPathComponent("file.bin")
        try Data("the old file".utf8).write(to: destination)
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            for answer in answers {
                do {
                    let file = try await network.download(request(answer.path, on: server), to: destination)
                    Issue.record("\(answer.path): saved \(file.byteCount) bytes of a part as the whole file")
                } catch DownloadError.unexpectedRange(let expected, let received) {
                    #expect(expected == 0, "\(answer.path)")
                    #expect(received == answer.receivedOffset, "\(answer.path)")
                } catch {
                    Issue.record("\(answer.path): expected unexpectedRange, got \(error)")
                }
                // The old file is left as it was, and no temporary file is left beside it.
                let kept = try Data(contentsOf: destination)
                #expect(kept == Data("the old file".utf8), "\(answer.path)")
                #expect(folderContents == ["file.bin"], "\(answer.path)")
            }
            #expect(network.activeRequestCount == 0)
        }
        #expect(server.requests.allSatisfy { $0.header("Range") == nil })
    }

    @Test(
        "a 206 whose Content-Range is the whole body is the file, byte for byte",
        arguments: TransportKind.allCases)
    func wholeBody(_ kind: TransportKind) async throws {
        let server = try Self.partialServer()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("whole.bin")
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let file = try await network.download(request("whole", on: server), to: destination)
            #expect(file.response.statusCode == 206)
            #expect(file.byteCount == Int64(Self.body.count))
            #expect(file.resumedByteCount == 0)
        }
        #expect(try Data(contentsOf: destination) == Self.body)
        #expect(folderContents == ["whole.bin"])
    }

    @Test(
        "a request that sets Range itself gets the part it asked for, saved as the file",
        arguments: TransportKind.allCases)
    func askedForPart(_ kind: TransportKind) async throws {
        let server = try Self.partialServer()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("part.bin")
        var ranged = request("elsewhere", on: server)
        ranged.headers["Range"] = "bytes=100-199"
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let file = try await network.download(ranged, to: destination)
            #expect(file.response.statusCode == 206)
            #expect(file.byteCount == 100)
        }
        #expect(try Data(contentsOf: destination) == Self.body[100..<200])
        #expect(server.requests.first?.header("Range") == "bytes=100-199")
    }
}
