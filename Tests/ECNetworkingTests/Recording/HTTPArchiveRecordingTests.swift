import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A network with an ``HTTPArchiveRecorder`` records its traffic as HAR 1.2, with no planted
/// secret anywhere in the archive or its file, and `FakeNetwork(replaying:)` answers the same
/// requests from it with no server running.
@Suite("HAR recording and replay")
struct HTTPArchiveRecordingTests {
    private struct Login: Request {
        struct Credentials: Encodable, Sendable {
            let user: String
            let password: String
        }
        struct Session: Decodable, Sendable, Equatable {
            let token: String
            let name: String
        }
        typealias Response = Session
        let password: String

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(
                method: .post, url: baseURL.appendingPathComponent("login"),
                body: .json(Credentials(user: "ada", password: password)))
        }
    }

    private struct Profile: Request {
        struct User: Decodable, Sendable, Equatable {
            let id: Int
            let name: String
        }
        typealias Response = User
        let id: Int

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            var request = NetworkRequest(url: baseURL.appendingPathComponent("users/\(id)"))
            request.url.append(queryItems: [URLQueryItem(name: "access_token", value: "SECRET-QUERY")])
            request.headers["Authorization"] = "Bearer SECRET-HEADER"
            request.headers["Cookie"] = "session=SECRET-COOKIE"
            return request
        }
    }

    private static let secrets = [
        "SECRET-QUERY", "SECRET-HEADER", "SECRET-COOKIE", "SECRET-PASSWORD", "SECRET-TOKEN", "SECRET-SETCOOKIE",
    ]

    private static func server() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            if request.path.hasPrefix("/login") {
                return .response(
                    status: 200,
                    headers: ["Content-Type": "application/json", "Set-Cookie": "sid=SECRET-SETCOOKIE; Path=/"],
                    body: Data(#"{"token":"SECRET-TOKEN","name":"Ada"}"#.utf8))
            }
            if request.path.hasPrefix("/users/1") {
                return .response(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"id":1,"name":"Ada"}"#.utf8))
            }
            if request.path.hasPrefix("/bytes") {
                return .response(
                    status: 200, headers: ["Content-Type": "application/octet-stream"], body: Data([0xFF, 0x00, 0xFE]))
            }
            return .response(status: 404, headers: ["Content-Type": "text/plain"], body: Data("no such user".utf8))
        }
    }

    /// Records a login, a profile, a 404 and a binary body over `kind`, and returns the archive.
    private static func record(over kind: TransportKind, server: LoopbackHTTPServer) async throws -> HTTPArchive {
        let recorder = HTTPArchiveRecorder()
        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.archiveRecorder = recorder }) { network in
            #expect(network.configuration.archiveRecorder === recorder)
            let session = try await network.send(Login(password: "SECRET-PASSWORD"))
            #expect(session == Login.Session(token: "SECRET-TOKEN", name: "Ada"))
            #expect(try await network.send(Profile(id: 1)) == Profile.User(id: 1, name: "Ada"))
            await #expect(throws: NetworkError.self) { try await network.send(Profile(id: 2)) }
            _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("bytes")))
        }
        return recorder.archive
    }

    @Test(
        "each request on the wire is an entry with its answer, and no planted secret is in the archive or its file (0600)",
        arguments: TransportKind.allCases)
    func recording(_ kind: TransportKind) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let archive = try await Self.record(over: kind, server: server)

        let entries = archive.log.entries
        #expect(archive.log.version == "1.2")
        #expect(entries.map(\.request.method) == ["POST", "GET", "GET", "GET"])
        #expect(entries.map(\.response.status) == [200, 200, 404, 200])
        #expect(entries[0].request.postData?.mimeType == "application/json")
        #expect(entries[0].request.postData?.text.contains(#""user":"ada""#) == true)
        #expect(entries[0].response.content.text?.contains(#""name":"Ada""#) == true)
        #expect(entries[1].request.url.hasPrefix(server.baseURL.absoluteString + "/users/1?access_token="))
        #expect(entries[1].request.queryString.first?.name == "access_token")
        #expect(entries[2].response.content.text == "no such user")
        #expect(entries[3].response.content.encoding == "base64")
        #expect(entries[3].response.content.text.flatMap { Data(base64Encoded: $0) } == Data([0xFF, 0x00, 0xFE]))
        #expect(entries.allSatisfy { $0.time >= 0 && $0.timings.wait >= 0 && $0.timings.receive >= 0 })

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("session.har")
        let recorder = HTTPArchiveRecorder()
        for entry in entries { recorder.append(entry) }
        try await recorder.write(to: file)
        try await recorder.write(to: file)  // replaces the file whole
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["session.har"])
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in Self.secrets {
            #expect(!text.contains(secret), "\(secret) is in the archive")
            #expect(!String(decoding: try archive.encoded(), as: UTF8.self).contains(secret))
        }
        #expect(text.contains("<redacted>"))
        #expect(try HTTPArchive(contentsOf: file) == archive)
    }

    @Test(
        "a redirect the library follows is one entry with the final answer; a request with no answer is none",
        arguments: TransportKind.allCases)
    func redirectsAndUnanswered(_ kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { request in
            request.path.hasPrefix("/moved")
                ? .response(status: 302, headers: ["Location": "/users/1"])
                : .response(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"id":1,"name":"Ada"}"#.utf8))
        }
        defer { server.stop() }
        let closed = try ClosedPort()
        let recorder = HTTPArchiveRecorder()
        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.archiveRecorder = recorder }) { network in
            let moved = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("moved")))
            #expect(moved.statusCode == 200)
            await #expect(throws: NetworkError.self) { try await network.send(NetworkRequest(url: closed.baseURL)) }
        }
        let entries = recorder.archive.log.entries
        #expect(entries.count == 1)
        #expect(entries.first?.request.url == server.baseURL.absoluteString + "/moved")
        #expect(entries.first?.response.status == 200)
        #expect(server.requests.map(\.path) == ["/moved", "/users/1"])
    }

    @Test("the archive follows HAR 1.2's schema", arguments: TransportKind.allCases)
    func schema(_ kind: TransportKind) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let archive = try await Self.record(over: kind, server: server)
        let violations = HTTPArchive.schemaViolations(in: try archive.encoded())
        #expect(violations.isEmpty, "\(violations)")
        let json = try JSONSerialization.jsonObject(with: archive.encoded())
        // The checker can fail: an entry without its timings breaks the schema.
        var broken = try #require(json as? [String: Any])
        var log = try #require(broken["log"] as? [String: Any])
        var entries = try #require(log["entries"] as? [[String: Any]])
        entries[0]["timings"] = nil
        entries[1]["time"] = "slow"
        log["entries"] = entries
        broken["log"] = log
        let brokenData = try JSONSerialization.data(withJSONObject: broken)
        #expect(HTTPArchive.schemaViolations(in: brokenData).count == 2)
        #expect(HTTPArchive.schemaViolations(in: Data("not a HAR".utf8)) == ["$: not JSON"])
    }

    @Test(
        "a FakeNetwork replays the recording with no server: same values, the last answer repeats, an unknown request is named"
    )
    func replay() async throws {
        let server = try Self.server()
        let archive = try await Self.record(over: .urlSession, server: server)
        let baseURL = server.baseURL
        server.stop()

        let fake = FakeNetwork(replaying: archive, configuration: NetworkConfiguration(baseURL: baseURL))
        // Matched with the password redacted, as it was recorded; the answer's token was redacted too.
        #expect(try await fake.send(Login(password: "another")) == Login.Session(token: "<redacted>", name: "Ada"))
        for _ in 0..<2 {
            #expect(try await fake.send(Profile(id: 1)) == Profile.User(id: 1, name: "Ada"))
        }
        let notFound = await #expect(throws: NetworkError.self) { try await fake.send(Profile(id: 2)) }
        #expect(notFound?.statusCode == 404)
        #expect(
            try await fake.send(NetworkRequest(url: baseURL.appendingPathComponent("bytes"))).body
                == Data([0xFF, 0x00, 0xFE]))

        let unknown = await #expect(throws: (any Error).self) { try await fake.send(Profile(id: 3)) }
        #expect(
            String(describing: unknown).contains("GET \(baseURL.absoluteString)/users/3"),
            "\(String(describing: unknown))")
        #expect(fake.sendCount(of: Profile.self) == 4)
    }

    @Test("with replaysTimings, an answer comes after its recorded time")
    func replayedTimings() async throws {
        let server = try Self.server()
        var archive = try await Self.record(over: .urlSession, server: server)
        let baseURL = server.baseURL
        server.stop()
        archive.log.entries[1].time = 300

        let fake = FakeNetwork(
            replaying: archive, configuration: NetworkConfiguration(baseURL: baseURL), replaysTimings: true)
        let start = ContinuousClock.now
        _ = try await fake.send(Profile(id: 1))
        #expect(ContinuousClock.now - start >= .milliseconds(300))
    }
}
