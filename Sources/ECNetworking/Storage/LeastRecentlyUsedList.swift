/// Values by key in order of use, each with a cost, so a store can keep a byte budget by dropping
/// the least recently used values first.
///
/// Every operation is O(1): a dictionary finds a node, and the nodes form a doubly linked list from
/// the newest to the oldest. The nodes live in one dense array linked by index, not as objects, so
/// a list of ten thousand entries is one allocation rather than ten thousand; a removed node's slot
/// is filled by the last node, which keeps the array dense.
struct LeastRecentlyUsedList<Value: Sendable> {
    private struct Node {
        var key: String
        var value: Value
        var cost: Int
        /// The node used just after this one, toward the newest.
        var newer: Int?
        /// The node used just before this one, toward the oldest.
        var older: Int?
    }

    private var nodes: [Node] = []
    private var slots: [String: Int] = [:]
    private var newest: Int?
    private var oldest: Int?
    /// The sum of every value's cost.
    private(set) var totalCost = 0

    /// The number of values.
    var count: Int { nodes.count }

    /// The value under `key`, which becomes the most recently used; `nil` when there is none.
    mutating func use(_ key: String) -> Value? {
        guard let slot = slots[key] else { return nil }
        moveToNewest(slot)
        return nodes[slot].value
    }

    /// Stores `value` under `key` as the most recently used, replacing any value already there.
    mutating func insert(_ value: Value, cost: Int, for key: String) {
        if let slot = slots[key] {
            totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            moveToNewest(slot)
            return
        }
        let slot = nodes.count
        nodes.append(Node(key: key, value: value, cost: cost, newer: nil, older: newest))
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
        slots[key] = slot
        totalCost += cost
    }

    /// Removes the value under `key` and returns it, or `nil` when there is none.
    @discardableResult
    mutating func remove(_ key: String) -> Value? {
        guard let slot = slots[key] else { return nil }
        return removeNode(at: slot).value
    }

    /// Removes the least recently used value and returns it with its key and cost, or `nil` when
    /// the list is empty.
    mutating func removeOldest() -> (key: String, value: Value, cost: Int)? {
        guard let oldest else { return nil }
        let node = removeNode(at: oldest)
        return (node.key, node.value, node.cost)
    }

    /// Removes every value.
    mutating func removeAll() {
        nodes.removeAll()
        slots.removeAll()
        newest = nil
        oldest = nil
        totalCost = 0
    }

    /// Removes every value whose key satisfies `shouldRemove`; O(n).
    mutating func removeAll(where shouldRemove: (String) -> Bool) {
        for key in slots.keys where shouldRemove(key) {
            remove(key)
        }
    }

    private mutating func unlink(_ slot: Int) {
        let node = nodes[slot]
        if let newer = node.newer { nodes[newer].older = node.older } else { newest = node.older }
        if let older = node.older { nodes[older].newer = node.newer } else { oldest = node.newer }
        nodes[slot].newer = nil
        nodes[slot].older = nil
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        nodes[slot].older = newest
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func removeNode(at slot: Int) -> Node {
        unlink(slot)
        let removed = nodes[slot]
        slots[removed.key] = nil
        totalCost -= removed.cost
        let last = nodes.count - 1
        if slot != last {
            // The last node takes the freed slot; whatever pointed at it now points at the slot.
            let moved = nodes[last]
            nodes[slot] = moved
            slots[moved.key] = slot
            if let newer = moved.newer { nodes[newer].older = slot } else { newest = slot }
            if let older = moved.older { nodes[older].newer = slot } else { oldest = slot }
        }
        nodes.removeLast()
        return removed
    }
}
