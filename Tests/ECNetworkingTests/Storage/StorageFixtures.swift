import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// `GET /users`, storable, with a maximum age the test chooses.
struct StorableUsersRequest: StorableRequest {
    typealias Response = [User]
    var maximumStorageAge: Duration = .seconds(300)
    var customProperties = CustomProperties()

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .get, url: baseURL.appendingPathComponent("users"))
    }
}

/// `GET /status`, storable, that accepts 404 as an answer, to show that only 2xx answers are stored.
struct StorableStatusRequest: StorableRequest {
    typealias Response = Data

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(method: .get, url: baseURL.appendingPathComponent("status"))
        request.acceptableStatusCodes = [200, 404]
        return request
    }
}

/// Helpers shared by the storage tests, under one name so they cannot clash with other suites'.
enum StorageFixtures {
    static let ada = [User(id: 1, name: "Ada")]
    static let bo = [User(id: 2, name: "Bo")]

    /// The key ``StorableUsersRequest`` is stored under by a network without default headers.
    static let usersKey = "GET https://api.example.com/v1/users"

    static func json(_ users: [User]) -> Data {
        try! JSONEncoder().encode(users)
    }

    /// The users in a stored body, compared as values because JSON key order may differ per encoding.
    static func users(in response: StoredResponse?) -> [User]? {
        response.flatMap { try? JSONDecoder().decode([User].self, from: $0.body) }
    }

    /// A stored 200 for `users`, stored `age` ago, with extra headers.
    static func stored(_ users: [User], age: TimeInterval = 0, headers: HTTPHeaders = [:]) -> StoredResponse {
        var all = headers
        all["Content-Type"] = "application/json"
        return StoredResponse(statusCode: 200, headers: all, body: json(users), storedAt: Date() - age)
    }

    /// The date ``response(key:size:)`` is stored at, so two calls make equal responses.
    static let fixedDate = Date(timeIntervalSince1970: 1_700_000_000)

    /// A response of about `size` body bytes whose body names `key`, so a reader can tell whose it is.
    static func response(key: String, size: Int = 64) -> StoredResponse {
        let prefix = Data("\(key):".utf8)
        let padding = Data(repeating: UInt8(ascii: "x"), count: max(0, size - prefix.count))
        return StoredResponse(
            statusCode: 200, headers: ["ETag": "\"\(key)\""], body: prefix + padding, storedAt: fixedDate)
    }

    /// Whether `response` is the one ``response(key:size:)`` made for `key`.
    /// `tasks` concurrent writers and readers over 40 keys, half the rounds writing and half
    /// reading; counts the reads that found an entry and those whose entry was for another key.
    static func readAndWriteConcurrently(
        _ store: some ResponseStore,
        tasks: Int,
        rounds: Int
    ) async -> (hits: Int, mismatches: Int) {
        let hits = Counter()
        let mismatches = Counter()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for round in 0..<rounds {
                        let key = "key-\((task * 7 + round) % 40)"
                        if round.isMultiple(of: 2) {
                            await store.store(response(key: key), for: key)
                        } else if let stored = await store.storedResponse(for: key) {
                            hits.increment()
                            if !belongs(stored, to: key) { mismatches.increment() }
                        }
                    }
                }
            }
        }
        return (hits.count, mismatches.count)
    }

    static func belongs(_ response: StoredResponse, to key: String) -> Bool {
        response.body.starts(with: Data("\(key):".utf8)) && response.etag == "\"\(key)\""
    }

    /// A new empty directory under the system's temporary directory.
    static func makeTemporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ECNetworkingStorageTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The files in `directory` with `pathExtension`.
    static func files(in directory: URL, withExtension pathExtension: String = "response") -> [URL] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == pathExtension }
    }

    /// The total size of the entry files in `directory`.
    static func entryBytes(in directory: URL) -> Int {
        files(in: directory).reduce(0) { total, file in
            total + ((try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
    }

    /// Waits until `condition` holds, with the shared bound that holds under ThreadSanitizer too.
    static func wait(until condition: @Sendable () -> Bool) async throws {
        try await waitUntil(condition)
    }

    /// The process's resident memory in bytes, where the system says (Linux), else `nil`.
    static func residentMemory() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * 4096
    }
}

/// A log sink that keeps what it is given.
final class StorageLogLines: @unchecked Sendable {
    // Safe because `lines` is only touched while `lock` is held.
    private let lock = NSLock()
    private var lines: [String] = []

    var sink: LogSink {
        LogSink { line in self.lock.withLock { self.lines.append(line) } }
    }

    var all: [String] {
        lock.withLock { lines }
    }
}

/// The suites of the response storage tests, under one name so `--filter Storage` runs them all.
@Suite("Response storage")
enum StorageTests {}
