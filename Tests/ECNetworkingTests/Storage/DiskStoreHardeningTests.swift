import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension StorageTests {
    @Suite("Disk store hardening")
    struct DiskHardening {
        typealias Fixtures = StorageFixtures

        /// The permission bits and file type of `path`, without following a symbolic link.
        static func mode(of path: String) -> mode_t? {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            return info.st_mode
        }

        @Test("the directory is created 0700 and every entry file is 0600")
        func ownerOnlyPermissions() async throws {
            let parent = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: parent) }
            let directory = parent.appendingPathComponent("nested/responses", isDirectory: true)
            let store = try DiskResponseStore(directory: directory)
            for key in ["a", "b", StoragePartition("ada").key("c")] {
                await store.store(Fixtures.response(key: key), for: key)
            }

            #expect(Self.mode(of: directory.path).map { $0 & 0o777 } == 0o700)
            let files = Fixtures.files(in: directory)
            #expect(files.count == 3)
            for file in files {
                #expect(Self.mode(of: file.path).map { $0 & 0o777 } == 0o600)
            }
        }

        @Test("a write never goes through a symbolic link planted at the entry or at any predictable name")
        func plantedSymbolicLinksAreNotFollowed() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            let outside = try Fixtures.makeTemporaryDirectory()
            defer {
                try? FileManager.default.removeItem(at: directory)
                try? FileManager.default.removeItem(at: outside)
            }
            let target = outside.appendingPathComponent("victim.txt")
            let original = Data("do not touch".utf8)
            try original.write(to: target)
            let store = try DiskResponseStore(directory: directory)
            await store.store(Fixtures.response(key: "a"), for: "a")
            let entry = try #require(Fixtures.files(in: directory).first)
            // The entry itself, the temporary names the store used to choose, and a few more.
            try FileManager.default.removeItem(at: entry)
            let name = entry.lastPathComponent
            var planted = [entry.path]
            for suffix in ["\(ProcessInfo.processInfo.processIdentifier).tmp", "tmp", "0.tmp", "1.tmp"] {
                planted.append(directory.appendingPathComponent("\(name).\(suffix)").path)
            }
            for path in planted {
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target.path)
            }

            // Reading through the planted link finds nothing, and does not touch the target.
            #expect(await store.storedResponse(for: "a") == nil)
            await store.store(Fixtures.response(key: "a", size: 200), for: "a")

            #expect(try Data(contentsOf: target) == original)
            #expect(Self.mode(of: target.path).map { $0 & 0o777 } != 0o600)
            #expect(Self.mode(of: entry.path).map { $0 & S_IFMT } == S_IFREG)
            #expect(await store.storedResponse(for: "a") == Fixtures.response(key: "a", size: 200))
        }

        @Test(
            "an entry with a forged date or status is dropped, never trusted and never a crash",
            arguments: [
                ("storedAt 1e300", 1e300, 200), ("storedAt -1e300", -1e300, 200), ("storedAt NaN", .nan, 200),
                ("storedAt infinity", .infinity, 200), ("storedAt negative", -5, 200),
                ("storedAt ten days ahead", Date().timeIntervalSince1970 + 864_000, 200),
                ("status 99999", 1_700_000_000, 99999), ("status -1", 1_700_000_000, -1),
            ])
        func forgedEntriesAreDropped(label: String, storedAt: Double, status: Int) async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try DiskResponseStore(directory: directory)
            await store.store(Fixtures.response(key: "a"), for: "a")
            let entry = try #require(Fixtures.files(in: directory).first)
            var forged = Fixtures.response(key: "a")
            forged.storedAt = Date(timeIntervalSince1970: storedAt)
            forged.statusCode = status
            // A well-formed file (right checksum) with the forged values, as an attacker would write.
            try StoredResponseEnvelope.encode(forged, key: "a").write(to: entry)

            #expect(await store.storedResponse(for: "a") == nil, "\(label)")
            #expect(Fixtures.files(in: directory).isEmpty, "\(label)")
        }

        @Test(
            "the age of a response stored at an absurd date never traps",
            arguments: [1e300, -1e300, Double.nan, .infinity, -.infinity])
        func ageNeverTraps(storedAt: Double) {
            let age = StoredResponse(statusCode: 200, storedAt: Date(timeIntervalSince1970: storedAt)).age()
            #expect(age >= .zero && age <= StoredResponse.maximumAge)
            if storedAt.isNaN || storedAt < 0 { #expect(age == StoredResponse.maximumAge) }
        }

        // Found by an audit: a FIFO at an entry's name held the read in `open`, cancellation or
        // not, and with it every other read and write of the store, until a writer came.
        @Test("a FIFO, or a file longer than the budget, at an entry's name reads as nil at once and goes")
        func plantedFIFOAndOversizedFile() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try DiskResponseStore(directory: directory, byteBudget: 1_000_000)
            await store.store(Fixtures.response(key: "a"), for: "a")
            await store.store(Fixtures.response(key: "b"), for: "b")
            let entries = Fixtures.files(in: directory).map(\.path).sorted()
            try #require(entries.count == 2)
            for path in entries { try FileManager.default.removeItem(atPath: path) }
            #expect(mkfifo(entries[0], 0o600) == 0)
            // Sparse: a length past the budget costs no disk.
            #expect(FileManager.default.createFile(atPath: entries[1], contents: nil))
            #expect(truncate(entries[1], 2_000_000) == 0)

            let reads = Task {
                (await store.storedResponse(for: "a"), await store.storedResponse(for: "b"))
            }
            try await waitUntil(timeout: .seconds(10)) { Fixtures.files(in: directory).isEmpty }
            let (a, b) = await reads.value
            #expect(a == nil && b == nil)
            // The store goes on working.
            await store.store(Fixtures.response(key: "c"), for: "c")
            #expect(await store.storedResponse(for: "c") == Fixtures.response(key: "c"))
        }

        @Test("no secret, no partition identity and no plain key reaches any byte of any file")
        func noSecretsInFiles() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try DiskResponseStore(directory: directory)
            let (network, session) = makeStubbedNetwork(
                answering: MockResponse(json: Fixtures.ada, headers: ["Set-Cookie": "session=PLANTED-COOKIE-000"]))
            network.add(action: SignedInUser("user-planted-789"))
            network.add(action: AddHeader(name: "Cookie", value: "session=PLANTED-COOKIE-111"))
            let request = TokenUsersRequest(token: "PLANTED-SECRET-123")

            _ = try await network.send(request, storage: store, policy: .networkOnly)
            let again = try await network.send(request, storage: store, policy: .storedIfFresh)

            #expect(again.source == .store)
            #expect(session.recordedRequests.count == 1)
            let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            #expect(files.count == 1)
            let forbidden = [
                "PLANTED-SECRET-123", "token-of-user-planted-789", "user-planted-789", "PLANTED-COOKIE",
                "access_token", "api.example.com",
            ]
            for file in files {
                let bytes = try Data(contentsOf: file)
                for secret in forbidden {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in \(file.lastPathComponent)")
                    #expect(!file.lastPathComponent.contains(secret))
                }
            }
        }

        @Test("entries of the older format, which held plain keys, are removed when the directory is opened")
        func olderFormatEntriesAreRemoved() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let old = directory.appendingPathComponent("0123456789abcdef.response")
            try Data("ECRS\u{1}GET https://api.example.com/v1/users?access_token=PLANTED".utf8).write(to: old)
            let unrelated = directory.appendingPathComponent("notes.txt")
            try Data("keep me".utf8).write(to: unrelated)

            let store = try DiskResponseStore(directory: directory)
            await store.store(Fixtures.response(key: "a"), for: StoragePartition("ada").key("a"))

            #expect(!FileManager.default.fileExists(atPath: old.path))
            #expect(FileManager.default.fileExists(atPath: unrelated.path))
            let reopened = try DiskResponseStore(directory: directory)
            #expect(reopened.count == 1)
        }

        @Test("SHA-256 matches the standard's test vectors")
        func sha256Vectors() {
            #expect(
                SHA256.hexadecimalHash("")
                    == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            #expect(
                SHA256.hexadecimalHash("abc")
                    == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            #expect(
                SHA256.hexadecimalHash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                    == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        }
    }
}
