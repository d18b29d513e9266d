/// One named loop to measure next to others.
struct PipelineVariant: Sendable {
    /// The row's label.
    var name: String
    /// The loop.
    var loop: any PipelineLoop
}

/// What one variant costs per send.
struct PipelineFigures: Sendable {
    /// Process CPU nanoseconds per send in each round, in round order: the figure compared, as it
    /// does not count time the machine spent on other processes.
    var roundNanoseconds: [Double]
    /// Wall-clock nanoseconds per send in each round, in round order.
    var roundWallNanoseconds: [Double]
    /// Heap allocations per send, on every thread.
    var allocations: Double
    /// Heap bytes requested per send.
    var allocatedBytes: Double

    /// The median over the rounds of process CPU nanoseconds per send.
    var nanoseconds: Double { Statistics.median(roundNanoseconds) }

    /// The median over the rounds of wall-clock nanoseconds per send.
    var wallNanoseconds: Double { Statistics.median(roundWallNanoseconds) }

    /// What this variant costs per send over `baseline` in CPU time: the median over the rounds of
    /// the difference within each round. Paired by round, since both ran within the same second:
    /// a difference of the two medians also carried how the machine's speed moved between the
    /// rounds each median came from, and moved by ±150 ns from run to run.
    func overheadNanoseconds(over baseline: PipelineFigures) -> Double {
        Self.medianDifference(roundNanoseconds, baseline.roundNanoseconds)
    }

    /// The same in wall-clock time.
    func overheadWallNanoseconds(over baseline: PipelineFigures) -> Double {
        Self.medianDifference(roundWallNanoseconds, baseline.roundWallNanoseconds)
    }

    /// This variant's CPU time per send divided by `baseline`'s, round by round, and the median
    /// of those ratios: the headline figure, since a ratio of two loops timed within the same
    /// second holds from one machine to the next where nanoseconds move 2–3×.
    func ratio(over baseline: PipelineFigures) -> Double {
        Statistics.median(roundRatios(over: baseline))
    }

    /// The ratio of CPU time per send to `baseline`'s in each round, in round order.
    func roundRatios(over baseline: PipelineFigures) -> [Double] {
        zip(roundNanoseconds, baseline.roundNanoseconds).map { $0 / $1 }
    }

    /// The median of `figures` minus `baseline`, round by round.
    private static func medianDifference(_ figures: [Double], _ baseline: [Double]) -> Double {
        Statistics.median(zip(figures, baseline).map { $0 - $1 })
    }
}

/// Times loops side by side: every variant once per round, in an order that reverses from one
/// round to the next, so a change in machine load (other engineers compile on the same two cores)
/// hits all variants alike; then counts allocations in a separate pass, since counting itself
/// costs a little time.
enum PipelineMeasurement {
    /// How many sends and rounds to use.
    struct Plan: Sendable {
        /// Sends per timed round and per warm-up.
        var iterations: Int
        /// Timed rounds per variant.
        var rounds: Int
        /// Sends in the allocation-counting pass.
        var allocationIterations: Int

        /// Sends one variant makes in all: warm-up, timed rounds and the counting pass.
        var sendsPerVariant: Int { iterations * (rounds + 1) + allocationIterations }

        /// The full or quick plan.
        init(quick: Bool) {
            iterations = quick ? 2_000 : 10_000
            rounds = quick ? 3 : 9
            allocationIterations = quick ? 1_000 : 10_000
        }
    }

    /// Warms every variant up, times them in interleaved rounds, then counts their allocations.
    static func measure(_ variants: [PipelineVariant], plan: Plan) async throws -> [PipelineFigures] {
        // Warm-up: first calls fault in code, fill caches and grow the task allocator's slabs.
        for variant in variants {
            try await variant.loop.run(iterations: plan.iterations)
        }
        let clock = ContinuousClock()
        var cpu = Array(repeating: [Double](), count: variants.count)
        var wall = Array(repeating: [Double](), count: variants.count)
        for round in 0..<plan.rounds {
            // Alternating order (AB…, then …BA): CPU a variant leaves running on other threads, and
            // the machine's drift within a round, fall on each variant's neighbours in turn.
            let order = round.isMultiple(of: 2) ? Array(variants.indices) : Array(variants.indices.reversed())
            for index in order {
                let variant = variants[index]
                let cpuStart = CPUTime.now()
                let start = clock.now
                try await variant.loop.run(iterations: plan.iterations)
                wall[index].append((clock.now - start).nanoseconds / Double(plan.iterations))
                cpu[index].append((CPUTime.now() - cpuStart) / Double(plan.iterations))
            }
        }
        var figures: [PipelineFigures] = []
        for (index, variant) in variants.enumerated() {
            let sample = try await AllocationCounter.measure {
                try await variant.loop.run(iterations: plan.allocationIterations)
            }
            let sends = Double(plan.allocationIterations)
            figures.append(
                PipelineFigures(
                    roundNanoseconds: cpu[index],
                    roundWallNanoseconds: wall[index],
                    allocations: Double(sample.allocations) / sends,
                    allocatedBytes: Double(sample.allocatedBytes) / sends
                ))
        }
        return figures
    }
}
