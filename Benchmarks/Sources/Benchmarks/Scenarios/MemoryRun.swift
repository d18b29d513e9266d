import ECNetworking

/// Many sequential sends through the in-memory session (4 actions): resident memory before and
/// after, and the heap bytes allocated but not freed meanwhile. Both per send should be about zero.
struct MemoryRun {
    /// What the run saw.
    struct Figures: Sendable {
        /// Resident bytes after the warm-up.
        var residentBefore: Int
        /// Resident bytes after the sends.
        var residentAfter: Int
        /// Heap bytes allocated minus heap bytes freed during the sends and the settling wait (all threads).
        var heapRetained: Int
        /// The sends measured.
        var count: Int

        /// Resident growth per send.
        var residentGrowthPerSend: Double { Double(residentAfter - residentBefore) / Double(count) }
        /// Heap bytes kept per send.
        var heapRetainedPerSend: Double { Double(heapRetained) / Double(count) }
    }

    /// The sends measured.
    var count: Int
    /// The sends before the first reading, so caches and allocator pools are already grown.
    var warmUp: Int
    /// How long to wait after the sends before the second reading, still counting frees: long
    /// enough for timers the sends left pending to fire and free what they hold.
    var settle: Duration = .zero
    /// Changes the otherwise default configuration.
    var adjust: @Sendable (inout NetworkConfiguration) -> Void = { _ in }

    /// Warms up, then sends `count` requests while reading memory before and after.
    func run() async throws -> Figures {
        let loop = LibraryLoop(
            session: InMemoryEndpoint.makeSession(), baseURL: InMemoryEndpoint.baseURL, actionCount: 4, adjust: adjust)
        try await loop.run(iterations: warmUp)
        let before = ResidentMemory.current() ?? 0
        let heap = try await AllocationCounter.measure {
            try await loop.run(iterations: count)
            if settle > .zero { try await Task.sleep(for: settle) }
        }
        let after = ResidentMemory.current() ?? 0
        return Figures(
            residentBefore: before,
            residentAfter: after,
            heapRetained: heap.allocatedBytes - heap.freedBytes,
            count: count
        )
    }
}
