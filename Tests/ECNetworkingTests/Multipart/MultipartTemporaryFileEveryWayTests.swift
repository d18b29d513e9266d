import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A multipart form over its `memoryThreshold` is written to a temporary file
/// holding its fields as they go on the wire, a password field included (UploadsDownloadsAndStreams.md:
/// "is created 0600 and exclusively, and is removed when the send ends"). The existing
/// MultipartTemporaryFileTests send through `URLSessionNetwork`'s own transport with `send(_:)`
/// only; these check every transport kind and the stream and download ways, for every end:
/// success, a failing status, a connection closed without an answer, and cancellation.
@Suite("A multipart form's temporary file, on every transport and way", .timeLimit(.minutes(2)))
struct MultipartTemporaryFileEveryWayTests {
    private static let passwordSecret = "H3-MULTIPART-PASSWORD-71d0"

    /// The library's multipart temporary files that hold a body with `boundary`.
    private static func temporaryFiles(of boundary: String) -> [URL] {
        MultipartTemporaryFileTests.temporaryFiles(of: boundary)
    }

    private static func form(fileAt url: URL) -> MultipartFormData {
        var form = MultipartFormData()
        form.memoryThreshold = 0
        form.append("ada", name: "name")
        form.append(passwordSecret, name: "password")
        form.append(fileAt: url, name: "photo", contentType: "image/jpeg")
        return form
    }

    enum Way: String, CaseIterable, Sendable {
        case send, stream, download

        /// Sends `request` this way over `network`, a download into `folder`, and reads the body.
        func send(_ request: NetworkRequest, over network: URLSessionNetwork, downloadingInto folder: URL) async throws
        {
            switch self {
            case .send:
                _ = try await network.send(request)
            case .stream:
                let stream = try await network.stream(request)
                _ = try await stream.collect()
            case .download:
                _ = try await network.download(request, to: folder.appendingPathComponent("d-\(UUID().uuidString)"))
            }
        }
    }

    enum End: String, CaseIterable, Sendable {
        case success, failingStatus, unanswered
    }

    @Test(
        "the temporary file is gone once the send ended, whatever the transport, way and end",
        arguments: TransportKind.allCases, Way.allCases)
    func goneAtTheEnd(kind: TransportKind, way: Way) async throws {
        let photo = try makeTemporaryFile(Data(repeating: 0x42, count: 50_000))
        defer { try? FileManager.default.removeItem(at: photo.deletingLastPathComponent()) }
        let folder = try ScratchFolder()
        defer { folder.remove() }
        for end in End.allCases {
            let server = try LoopbackHTTPServer { _ in
                switch end {
                case .success:
                    .response(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
                case .failingStatus: .response(status: 500, body: Data("oops".utf8))
                case .unanswered: .raw(Data())
                }
            }
            defer { server.stop() }
            let form = Self.form(fileAt: photo)
            let request = NetworkRequest(
                method: .post, url: server.baseURL.appendingPathComponent("photos"), body: .multipart(form))
            try await kind.withNetwork(baseURL: server.baseURL) { network in
                do {
                    try await way.send(request, over: network, downloadingInto: folder.url)
                } catch {}
            }
            // Give a late removal a moment.
            try await Task.sleep(for: .milliseconds(200))
            let left = Self.temporaryFiles(of: form.boundary)
            #expect(left.isEmpty, "\(way) over \(kind), \(end): left \(left.map(\.lastPathComponent))")
            for file in left { try? FileManager.default.removeItem(at: file) }
        }
    }

    @Test(
        "while in flight the file is 0600; a cancelled send leaves none", arguments: TransportKind.allCases,
        Way.allCases)
    func privateAndGoneOnCancel(kind: TransportKind, way: Way) async throws {
        let photo = try makeTemporaryFile(Data(repeating: 0x43, count: 50_000))
        defer { try? FileManager.default.removeItem(at: photo.deletingLastPathComponent()) }
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let server = try LoopbackHTTPServer { _ in .silence }
        defer { server.stop() }
        let form = Self.form(fileAt: photo)
        let request = NetworkRequest(
            method: .post, url: server.baseURL.appendingPathComponent("photos"), body: .multipart(form))
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let send = Task { try await way.send(request, over: network, downloadingInto: folder.url) }
            try await waitUntil { server.requests.count >= 1 }
            let files = Self.temporaryFiles(of: form.boundary)
            #expect(files.count == 1, "\(way) over \(kind): \(files)")
            for file in files {
                let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            }
            send.cancel()
            _ = await send.result
        }
        try await Task.sleep(for: .milliseconds(200))
        let left = Self.temporaryFiles(of: form.boundary)
        #expect(left.isEmpty, "\(way) over \(kind), cancelled: left \(left.map(\.lastPathComponent))")
        for file in left { try? FileManager.default.removeItem(at: file) }
    }
}
