import Testing

@testable import ECNetworking

@Suite("BinaryHeap: the one heap behind the request queue and the deadline scheduler")
struct BinaryHeapTests {
    /// A generator with a fixed seed, so that a failure can be repeated.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static func drain(_ heap: inout BinaryHeap<Int>) -> [Int] {
        var drained: [Int] = []
        while let least = heap.removeFirst() { drained.append(least) }
        return drained
    }

    @Test("elements leave in ascending order, duplicates included", arguments: [0, 1, 2, 3, 17, 1000])
    func ascendingOrder(count: Int) {
        var generator = SplitMix(state: UInt64(count))
        let values = (0..<count).map { _ in Int.random(in: 0..<50, using: &generator) }
        var heap = BinaryHeap<Int>()
        for value in values { heap.insert(value) }

        #expect(heap.count == count)
        #expect(heap.first == values.min())
        #expect(Self.drain(&heap) == values.sorted())
        #expect(heap.isEmpty)
        #expect(heap.removeFirst() == nil)
    }

    @Test("interleaved inserts and removals always remove the least element present")
    func interleaved() {
        var generator = SplitMix(state: 42)
        var heap = BinaryHeap<Int>()
        var model: [Int] = []
        for _ in 0..<5000 {
            if model.isEmpty || Bool.random(using: &generator) {
                let value = Int.random(in: -100..<100, using: &generator)
                heap.insert(value)
                model.append(value)
            } else {
                let least = model.min()!
                model.remove(at: model.firstIndex(of: least)!)
                #expect(heap.removeFirst() == least)
            }
            #expect(heap.first == model.min())
        }
    }

    @Test("removeAll(where:) drops the matching elements and keeps the rest in order")
    func removeAllRebuilds() {
        var generator = SplitMix(state: 7)
        let values = (0..<500).map { _ in Int.random(in: 0..<10_000, using: &generator) }
        var heap = BinaryHeap<Int>()
        for value in values { heap.insert(value) }

        heap.removeAll { $0 % 3 == 0 }

        #expect(heap.count == values.filter { $0 % 3 != 0 }.count)
        #expect(Self.drain(&heap) == values.filter { $0 % 3 != 0 }.sorted())
    }
}
