import ECNetworking
import Foundation
import Testing

extension StorageTests {
    @Suite("In-memory response store")
    struct InMemoryStore {
        typealias Fixtures = StorageFixtures

        @Test("stores, replaces, removes and clears")
        func basicOperations() async {
            let store = InMemoryResponseStore()
            await store.store(Fixtures.response(key: "a"), for: "a")
            await store.store(Fixtures.response(key: "b"), for: "b")
            await store.store(Fixtures.response(key: "a", size: 10), for: "a")

            #expect(await store.storedResponse(for: "a") == Fixtures.response(key: "a", size: 10))
            #expect(store.count == 2)
            #expect(
                store.byteCount == Fixtures.response(key: "a", size: 10).byteCount
                    + Fixtures.response(key: "b").byteCount)

            await store.removeResponse(for: "a")
            #expect(await store.storedResponse(for: "a") == nil)
            await store.removeAll()
            #expect(store.count == 0)
            #expect(store.byteCount == 0)
        }

        @Test("the least recently used responses leave first when the byte budget is exceeded")
        func evictsLeastRecentlyUsed() async {
            let entrySize = Fixtures.response(key: "a").byteCount
            let store = InMemoryResponseStore(byteBudget: entrySize * 3)
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
            #expect(store.byteCount == entrySize * 3)
        }

        @Test("a response larger than the budget is not kept, and removes the older one under its key")
        func oversizedResponse() async {
            let store = InMemoryResponseStore(byteBudget: 200)
            await store.store(Fixtures.response(key: "a"), for: "a")
            await store.store(Fixtures.response(key: "b"), for: "b")

            await store.store(Fixtures.response(key: "a", size: 500), for: "a")

            #expect(await store.storedResponse(for: "a") == nil)
            #expect(await store.storedResponse(for: "b") != nil)
        }

        @Test("100 concurrent writers and readers leave consistent entries within the budget")
        func concurrentWritersAndReaders() async {
            let entrySize = Fixtures.response(key: "key-0").byteCount
            let store = InMemoryResponseStore(byteBudget: entrySize * 20)
            let outcome = await Fixtures.readAndWriteConcurrently(store, tasks: 100, rounds: 50)

            #expect(outcome.mismatches == 0)
            #expect(outcome.hits > 0)
            #expect(store.byteCount <= store.byteBudget)
            #expect(store.count <= 20)
        }

        @Test("10,000 entries against a 1 MiB budget never go over it")
        func loadStaysWithinBudget() async {
            let budget = 1024 * 1024
            let store = InMemoryResponseStore(byteBudget: budget)
            let residentBefore = Fixtures.residentMemory()
            var largest = 0
            var overBudget = 0

            for index in 0..<10_000 {
                let key = "GET https://api.example.com/v1/items/\(index)"
                await store.store(Fixtures.response(key: key, size: 256 + index % 768), for: key)
                largest = max(largest, store.byteCount)
                if store.byteCount > budget { overBudget += 1 }
            }

            #expect(overBudget == 0)
            #expect(largest <= budget)
            #expect(store.count > 0)
            var growth: Int?
            if let residentBefore, let residentAfter = Fixtures.residentMemory() {
                growth = (residentAfter - residentBefore) / 1024
            }
            print(
                "InMemoryResponseStore, 10,000 entries, budget \(budget) bytes: largest total \(largest) bytes,",
                "\(store.count) entries kept, resident memory growth \(growth.map { "\($0) KiB" } ?? "unknown")"
            )
            await store.removeAll()
        }
    }
}
