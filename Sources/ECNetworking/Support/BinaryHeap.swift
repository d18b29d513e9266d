/// A binary heap: ``first`` is always the least element by `<`, in O(1); inserting and removing
/// it cost O(log n).
///
/// The queue of waiting requests and the deadline scheduler both keep one. Both remove entries
/// lazily: a cancelled entry stays until it surfaces, or until ``removeAll(where:)`` drops every
/// stale entry at once and rebuilds the heap in O(n), which keeps the size proportional to the live
/// entries at amortised O(1) per cancellation.
struct BinaryHeap<Element: Comparable> {
    private var elements: [Element] = []

    /// The least element, or `nil` when the heap is empty.
    var first: Element? { elements.first }

    /// The number of elements.
    var count: Int { elements.count }

    /// Whether the heap has no elements.
    var isEmpty: Bool { elements.isEmpty }

    /// Adds `element`.
    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the least element, or returns `nil` when the heap is empty.
    @discardableResult
    mutating func removeFirst() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let least = elements.removeLast()
        siftDown(from: 0)
        return least
    }

    /// Removes every element that satisfies `shouldBeRemoved`, in O(n).
    mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        try elements.removeAll(where: shouldBeRemoved)
        for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var least = parent
            if left < elements.count && elements[left] < elements[least] { least = left }
            if right < elements.count && elements[right] < elements[least] { least = right }
            if least == parent { return }
            elements.swapAt(parent, least)
            parent = least
        }
    }
}

extension BinaryHeap: Sendable where Element: Sendable {}
