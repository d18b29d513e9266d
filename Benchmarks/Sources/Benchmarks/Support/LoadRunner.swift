/// One timed run of a batch of requests: the wall time and each request's latency.
struct LoadSample: Sendable {
    /// From the first request started to the last one ended.
    var elapsed: Duration
    /// Each request's latency, in microseconds.
    var latencies: [Double]
    /// CPU time the whole process used meanwhile (client and in-process server), in nanoseconds.
    var cpuNanoseconds: Double

    /// Requests completed per second over the whole run.
    var requestsPerSecond: Double { Double(latencies.count) / (elapsed.nanoseconds / 1e9) }
    /// CPU microseconds per request, client and server together.
    var cpuMicrosecondsPerRequest: Double { cpuNanoseconds / 1e3 / Double(max(latencies.count, 1)) }
}

/// Runs `count` requests by `concurrency` workers, each sending its share one after another, so
/// exactly `concurrency` requests are in flight until the shares run out.
enum LoadRunner {
    /// Runs the batch and returns its wall time, latencies and CPU time; any failed request throws.
    static func run(
        count: Int,
        concurrency: Int,
        _ operation: @escaping @Sendable () async throws -> Void
    ) async throws -> LoadSample {
        let clock = ContinuousClock()
        let cpuStart = CPUTime.now()
        let start = clock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                let share = count / concurrency + (worker < count % concurrency ? 1 : 0)
                group.addTask {
                    var latencies: [Double] = []
                    latencies.reserveCapacity(share)
                    for _ in 0..<share {
                        let requestStart = clock.now
                        try await operation()
                        latencies.append((clock.now - requestStart).microseconds)
                    }
                    return latencies
                }
            }
            var all: [Double] = []
            all.reserveCapacity(count)
            for try await latencies in group { all += latencies }
            return all
        }
        return LoadSample(elapsed: clock.now - start, latencies: latencies, cpuNanoseconds: CPUTime.now() - cpuStart)
    }

    /// Runs every one of `calls` in `mode`, `rounds` times, interleaved (each round runs them all
    /// back to back), so that a disturbance of the machine falls on all of them alike. The order
    /// alternates (AB…, then …BA): the CPU a client leaves running on other threads, and the
    /// machine's drift within a round, fall on each client's neighbours in turn, not always on the
    /// same one. Returns the samples of each call, in the order of `calls`.
    static func interleaved(
        _ calls: [@Sendable () async throws -> Void], mode: LoadMode, rounds: Int
    ) async throws -> [[LoadSample]] {
        var samples = Array(repeating: [LoadSample](), count: calls.count)
        for round in 0..<rounds {
            let order = round.isMultiple(of: 2) ? Array(calls.indices) : Array(calls.indices.reversed())
            for index in order {
                samples[index].append(try await run(count: mode.count, concurrency: mode.concurrency, calls[index]))
            }
        }
        return samples
    }
}
