import ECNetworking
import Foundation
import TestSupport
import Testing

extension StorageTests {
    @Suite("Disk response store")
    struct DiskStore {
        typealias Fixtures = StorageFixtures

        @Test("creates its directory, and stores, replaces, removes and clears one file per entry")
        func basicOperations() async throws {
            let parent = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: parent) }
            let directory = parent.appendingPathComponent("nested/responses", isDirectory: true)
            let store = try DiskResponseStore(directory: directory)
            let unrelated = directory.appendingPathComponent("notes.txt")
            try Data("keep me".utf8).write(to: unrelated)

            let long = String(repeating: "/päth?q=1&", count: 100)
            await store.store(Fixtures.response(key: long), for: long)
            await store.store(Fixtures.response(key: "b"), for: "b")
            await store.store(Fixtures.response(key: "b", size: 300), for: "b")

            #expect(await store.storedResponse(for: long) == Fixtures.response(key: long))
            #expect(await store.storedResponse(for: "b") == Fixtures.response(key: "b", size: 300))
            #expect(await store.storedResponse(for: "missing") == nil)
            #expect(Fixtures.files(in: directory).count == 2)
            #expect(store.byteCount == Fixtures.entryBytes(in: directory))

            await store.removeResponse(for: long)
            #expect(await store.storedResponse(for: long) == nil)
            #expect(Fixtures.files(in: directory).count == 1)
            await store.removeAll()
            #expect(Fixtures.files(in: directory).isEmpty)
            #expect(store.count == 0)
            #expect(FileManager.default.fileExists(atPath: unrelated.path))
        }

        @Test("the least recently used entries are removed when the byte budget is exceeded")
        func evictsLeastRecentlyUsed() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let entrySize = try await fileSize(of: Fixtures.response(key: "a"), key: "a")
            let store = try DiskResponseStore(directory: directory, byteBudget: entrySize * 3 + entrySize / 2)
            for key in ["a", "b", "c"] {
                await store.store(Fixtures.response(key: key), for: key)
            }
            _ = await store.storedResponse(for: "a")

            await store.store(Fixtures.response(key: "d"), for: "d")
            #expect(await store.storedResponse(for: "b") == nil)
            await store.store(Fixtures.response(key: "e"), for: "e")
            #expect(await store.storedResponse(for: "c") == nil)

            for key in ["a", "d", "e"] {
                #expect(await store.storedResponse(for: key) == Fixtures.response(key: key))
            }
            #expect(Fixtures.files(in: directory).count == 3)
            #expect(Fixtures.entryBytes(in: directory) == entrySize * 3)
        }

        @Test("entries outlive the store that wrote them")
        func entriesOutliveTheirStore() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            do {
                let writer = try DiskResponseStore(directory: directory)
                await writer.store(Fixtures.response(key: "a"), for: "a")
                await writer.store(Fixtures.response(key: "b"), for: "b")
            }

            let reopened = try DiskResponseStore(directory: directory)

            #expect(reopened.count == 2)
            #expect(reopened.byteCount == Fixtures.entryBytes(in: directory))
            #expect(await reopened.storedResponse(for: "a") == Fixtures.response(key: "a"))
        }

        @Test("a directory opened for the first time is indexed in the order of its files' modification dates")
        func indexIsRebuiltFromModificationDates() async throws {
            let source = try Fixtures.makeTemporaryDirectory()
            let copy = try Fixtures.makeTemporaryDirectory()
            defer {
                try? FileManager.default.removeItem(at: source)
                try? FileManager.default.removeItem(at: copy)
            }
            let writer = try DiskResponseStore(directory: source)
            for key in ["a", "b", "c"] {
                await writer.store(Fixtures.response(key: key), for: key)
            }
            let entrySize = writer.byteCount / 3
            // Copied files, as another launch would find them: "b" used longest ago, then "c", then "a".
            let order = ["b", "c", "a"]
            for file in Fixtures.files(in: source) {
                let target = copy.appendingPathComponent(file.lastPathComponent)
                try FileManager.default.copyItem(at: file, to: target)
                let key = String(decoding: try Data(contentsOf: target), as: UTF8.self)
                let position = try #require(order.firstIndex { key.contains("\($0):") })
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSince1970: 1_000_000 + Double(position) * 60)],
                    ofItemAtPath: target.path)
            }
            let leftover = copy.appendingPathComponent("0123456789abcdef.response.99.tmp")
            try Data("half".utf8).write(to: leftover)
            try FileManager.default.setAttributes([.modificationDate: Date() - 3600], ofItemAtPath: leftover.path)

            let reopened = try DiskResponseStore(directory: copy, byteBudget: entrySize * 3)
            #expect(reopened.count == 3)
            #expect(!FileManager.default.fileExists(atPath: leftover.path))
            await reopened.store(Fixtures.response(key: "d"), for: "d")

            #expect(await reopened.storedResponse(for: "b") == nil)
            for key in ["a", "c", "d"] {
                #expect(await reopened.storedResponse(for: key) == Fixtures.response(key: key))
            }
        }

        @Test(
            "a damaged entry reads as nil and its file is removed",
            arguments: ["truncated", "garbage", "flipped", "empty"])
        func damagedEntryIsDropped(damage: String) async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try DiskResponseStore(directory: directory)
            await store.store(Fixtures.response(key: "a", size: 1000), for: "a")
            let file = try #require(Fixtures.files(in: directory).first)
            var contents = try Data(contentsOf: file)
            switch damage {
            case "truncated": contents = contents.prefix(contents.count / 2)
            case "garbage": contents = Data((0..<contents.count).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
            case "flipped": contents[contents.count - 10] ^= 0xFF
            default: contents = Data()
            }
            try contents.write(to: file)

            #expect(await store.storedResponse(for: "a") == nil)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(store.count == 0)
            #expect(store.byteCount == 0)
            await store.store(Fixtures.response(key: "a"), for: "a")
            #expect(await store.storedResponse(for: "a") == Fixtures.response(key: "a"))
        }

        @Test("a file removed behind the store's back reads as nil and leaves the budget")
        func fileRemovedBehindTheStoresBack() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try DiskResponseStore(directory: directory)
            await store.store(Fixtures.response(key: "a"), for: "a")
            try FileManager.default.removeItem(at: directory)

            #expect(await store.storedResponse(for: "a") == nil)
            #expect(store.byteCount == 0)
            await store.store(Fixtures.response(key: "b"), for: "b")
            #expect(await store.storedResponse(for: "b") == Fixtures.response(key: "b"))
        }

        @Test("two stores over one directory, used concurrently, share the entries and the budget")
        func twoStoresShareOneDirectory() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let entrySize = try await fileSize(of: Fixtures.response(key: "key-00"), key: "key-00")
            let first = try DiskResponseStore(directory: directory, byteBudget: entrySize * 15)
            // The same directory spelled differently still shares the first store's index and lock.
            let second = try DiskResponseStore(
                directory: directory.appendingPathComponent("sub/..", isDirectory: true), byteBudget: entrySize * 15)
            await first.store(Fixtures.response(key: "shared"), for: "shared")
            #expect(await second.storedResponse(for: "shared") == Fixtures.response(key: "shared"))
            let mismatches = Counter()

            await withTaskGroup(of: Void.self) { group in
                for task in 0..<20 {
                    let store = task.isMultiple(of: 2) ? first : second
                    group.addTask {
                        for round in 0..<30 {
                            let key = "key-" + String(format: "%02d", (task * 7 + round) % 30)
                            if round.isMultiple(of: 3) {
                                await store.removeResponse(for: key)
                            } else if round.isMultiple(of: 2) {
                                await store.store(Fixtures.response(key: key), for: key)
                            } else if let response = await store.storedResponse(for: key),
                                !Fixtures.belongs(response, to: key)
                            {
                                mismatches.increment()
                            }
                        }
                    }
                }
            }

            #expect(mismatches.count == 0)
            #expect(first.byteCount == second.byteCount)
            #expect(first.byteCount == Fixtures.entryBytes(in: directory))
            #expect(first.byteCount <= entrySize * 15)
            #expect(Fixtures.files(in: directory, withExtension: "tmp").isEmpty)
        }

        @Test("100 concurrent writers and readers leave whole entries within the budget")
        func concurrentWritersAndReaders() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let entrySize = try await fileSize(of: Fixtures.response(key: "key-00"), key: "key-00")
            let store = try DiskResponseStore(directory: directory, byteBudget: entrySize * 20)
            let outcome = await Fixtures.readAndWriteConcurrently(store, tasks: 100, rounds: 20)

            #expect(outcome.mismatches == 0)
            #expect(outcome.hits > 0)
            #expect(store.byteCount <= store.byteBudget)
            #expect(store.byteCount == Fixtures.entryBytes(in: directory))
            #expect(Fixtures.files(in: directory, withExtension: "tmp").isEmpty)
        }

        @Test("write and read cost per entry over 1,000 entries (printed, not asserted)")
        func measureCostPerEntry() async throws {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try DiskResponseStore(directory: directory)
            let keys = (0..<1000).map { "GET https://api.example.com/v1/items/\($0) Accept: application/json" }
            let responses = keys.map { Fixtures.response(key: $0, size: 1024) }
            let clock = ContinuousClock()

            let writing = await clock.measure {
                for (key, response) in zip(keys, responses) {
                    await store.store(response, for: key)
                }
            }
            var found = 0
            let reading = await clock.measure {
                for key in keys where await store.storedResponse(for: key) != nil {
                    found += 1
                }
            }

            #expect(found == 1000)
            let microseconds = { (duration: Duration) in Int((duration / 1000).seconds * 1_000_000) }
            print(
                "DiskResponseStore, 1,000 entries of 1 KiB: write \(microseconds(writing)) µs per entry,",
                "read \(microseconds(reading)) µs per entry"
            )
        }

        /// The size of the file one store writes for `response`, found by writing it.
        private func fileSize(of response: StoredResponse, key: String) async throws -> Int {
            let directory = try Fixtures.makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try DiskResponseStore(directory: directory)
            await store.store(response, for: key)
            return store.byteCount
        }
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
