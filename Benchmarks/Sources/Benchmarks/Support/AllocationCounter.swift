import MallocInterposerSwift

/// Counts heap allocations with ordo-one's malloc-interposer.
///
/// How it counts: the interposer's shared library defines `malloc`, `calloc`, `realloc`, `free`,
/// `posix_memalign` and friends itself and forwards to libc's through `dlsym(RTLD_NEXT)`. This
/// executable links it as a `DT_NEEDED` dependency ahead of libc, so the dynamic linker binds every
/// allocation in the process (Swift runtime, Foundation, Dispatch, the library) to it without
/// `LD_PRELOAD`. While counting is on, each call bumps per-thread counters, summed over all threads
/// when read. ``selfCheck()`` proves at start-up that the binding took effect.
///
/// The count includes every thread, so measure only while nothing else runs (the scenarios are
/// sequential and the loopback server is stopped by then).
enum AllocationCounter {
    /// The allocations and bytes of one measured region.
    struct Sample: Sendable {
        /// Calls to `malloc`, `calloc`, growing `realloc`, `posix_memalign`, …
        var allocations: Int
        /// Bytes requested by those calls.
        var allocatedBytes: Int
        /// Calls to `free`.
        var frees: Int
        /// Bytes released by those calls.
        var freedBytes: Int
    }

    /// Runs `body` with counting on and returns what it allocated (on every thread).
    static func measure(_ body: () async throws -> Void) async rethrows -> Sample {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        defer { MallocInterposerSwift.unhook() }
        try await body()
        MallocInterposerSwift.unhook()
        let statistics = MallocInterposerSwift.getStatistics()
        return Sample(
            allocations: statistics.mallocCount,
            allocatedBytes: statistics.mallocBytesCount,
            frees: statistics.freeCount,
            freedBytes: statistics.freeBytesCount
        )
    }

    /// Whether counting works: 1,000 class instances must show up as at least 1,000 allocations.
    static func selfCheck() async -> (works: Bool, counted: Int) {
        let sample = await measure {
            var boxes: [Probe] = []
            boxes.reserveCapacity(1000)
            for index in 0..<1000 { boxes.append(Probe(index)) }
            blackHole(boxes)
        }
        return (sample.allocations >= 1000, sample.allocations)
    }

    /// A heap object for ``selfCheck()``.
    private final class Probe {
        let value: Int
        init(_ value: Int) { self.value = value }
    }
}

/// Keeps the optimizer from removing work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
