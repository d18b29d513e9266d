import ECNetworking

/// Scenario 3: memory over many sends, the concurrency limit under 10,000 sends, and cancelling
/// 10,000 queued sends. The bars: memory back at its starting level (no growth per request);
/// never more than 64 in flight; cancelling well under a second.
struct ScaleScenario {
    /// Small counts (only the memory run is shortened; the other two are short already).
    var quick: Bool

    /// Runs the memory, limit and cancellation measurements, in that order.
    func run() async throws -> ScenarioOutcome {
        var outcome = ScenarioOutcome(title: "3. Scale", table: TextTable(header: ["figure", "value", "bar"]))
        // Memory first, while the process's heap has not yet been grown by 10,000 tasks at once.
        try await measureMemory(into: &outcome)
        await measureLimit(into: &outcome)
        try await measureCancellation(into: &outcome)
        return outcome
    }

    private func measureMemory(into outcome: inout ScenarioOutcome) async throws {
        let count = quick ? 20_000 : 100_000
        let warmUp = quick ? 2_000 : 10_000
        // The default configuration last, so that anything it left behind would show in its own
        // figures rather than in the other runs'.
        let withoutTimeout = try await MemoryRun(count: count, warmUp: warmUp) { $0.timeout = nil }.run()
        // A 1 s timeout, read 2 s after the last send: shows whether anything is held until
        // deadlines pass (it was, before the library's shared deadline scheduler).
        let shortTimeout = try await MemoryRun(count: count, warmUp: warmUp, settle: .seconds(2)) {
            $0.timeout = .seconds(1)
        }.run()
        let memory = try await MemoryRun(count: count, warmUp: warmUp).run()
        let runs = [
            ("default configuration (60 s timeout)", memory), ("timeout = nil", withoutTimeout),
            ("timeout = 1 s, read 2 s after the last send", shortTimeout),
        ]
        for (label, figures) in runs {
            outcome.table.add(
                "\(count) sends, \(label): resident before → after",
                "\(figures.residentBefore / 1024) → \(figures.residentAfter / 1024) KiB", "")
            outcome.table.add("  resident growth per send", "\(Format.number(figures.residentGrowthPerSend)) B", "≈ 0")
            outcome.table.add("  heap bytes kept per send", "\(Format.number(figures.heapRetainedPerSend)) B", "≈ 0")
        }
        outcome.result("memory_resident_before_bytes", "\(memory.residentBefore)")
        outcome.result("memory_resident_after_bytes", "\(memory.residentAfter)")
        outcome.result("memory_growth_bytes_per_request", Format.number(memory.residentGrowthPerSend))
        outcome.result("memory_heap_retained_bytes_per_request", Format.number(memory.heapRetainedPerSend))
        outcome.result(
            "memory_no_timeout_growth_bytes_per_request", Format.number(withoutTimeout.residentGrowthPerSend))
        outcome.result(
            "memory_no_timeout_heap_retained_bytes_per_request", Format.number(withoutTimeout.heapRetainedPerSend))
        outcome.result(
            "memory_1s_timeout_settled_heap_retained_bytes_per_request",
            Format.number(shortTimeout.heapRetainedPerSend))
        outcome.notes.append(
            "Memory: sequential sends, 4 actions, in-memory session; resident from /proc/self/statm; heap kept = "
                + "bytes malloc'd minus bytes freed while counting (all threads).")
    }

    private func measureLimit(into outcome: inout ScenarioOutcome) async {
        let limit = await ConcurrencyLimitRun().run()
        outcome.table.add("10,000 sends behind limit 64: total", "\(Format.number(limit.elapsed.milliseconds)) ms", "")
        outcome.table.add("  most session tasks in flight", "\(limit.maximumInFlight)", "≤ 64")
        outcome.table.add("  failed sends", "\(limit.failures)", "0")
        outcome.result("scale_max_in_flight", "\(limit.maximumInFlight)")
        outcome.result("scale_10k_ms", Format.number(limit.elapsed.milliseconds))
        if limit.maximumInFlight > 64 {
            outcome.violations.append("\(limit.maximumInFlight) session tasks in flight under a limit of 64")
        }
        if limit.failures > 0 {
            outcome.violations.append("\(limit.failures) of 10,000 limited sends failed")
        }
        if limit.started != 10_000 {
            outcome.violations.append("the session saw \(limit.started) tasks for 10,000 sends")
        }
        outcome.notes.append(
            "Limit: session tasks in flight counted by the session itself (resumed, not yet answered); each "
                + "answers after 1 ms, so 10,000 sends need at least 156 ms.")
    }

    private func measureCancellation(into outcome: inout ScenarioOutcome) async throws {
        let cancellation = try await CancellationRun(method: .network).run()
        // The same queue cancelled through the calling tasks instead: the difference is what the
        // library's registry of active sends adds to bulk cancellation.
        let viaTasks = try await CancellationRun(method: .tasks).run()
        for (label, figures) in [("cancelAll(of:)", cancellation), ("cancelling the calling tasks", viaTasks)] {
            outcome.table.add(
                "cancel 10,000 queued sends, \(label): until all ended",
                "\(Format.number(figures.elapsed.milliseconds)) ms", "≪ 1000 ms")
            outcome.table.add("  CPU time meanwhile", "\(Format.number(figures.cpuNanoseconds / 1e6)) ms", "")
            outcome.table.add(
                "  of which the cancelling call", "\(Format.number(figures.callDuration.milliseconds)) ms", "")
            outcome.table.add("  ended with NetworkError.cancelled", "\(figures.cancelled)", "10000")
            if figures.otherEndings > 0 {
                outcome.violations.append(
                    "\(figures.otherEndings) sends cancelled by \(label) did not end with NetworkError.cancelled")
            }
            if !figures.blockerCancelled {
                outcome.violations.append("the blocking send did not end with NetworkError.cancelled")
            }
            if figures.started != 1 {
                outcome.violations.append("\(figures.started - 1) queued sends reached the session despite the limit")
            }
        }
        outcome.result("cancel_10k_ms", Format.number(cancellation.elapsed.milliseconds))
        outcome.result("cancel_10k_cpu_ms", Format.number(cancellation.cpuNanoseconds / 1e6))
        outcome.result("cancel_10k_cancelled", "\(cancellation.cancelled)")
        outcome.result("cancel_10k_call_ms", Format.number(cancellation.callDuration.milliseconds))
        outcome.result("cancel_10k_via_tasks_ms", Format.number(viaTasks.elapsed.milliseconds))
        outcome.result("cancel_10k_via_tasks_cpu_ms", Format.number(viaTasks.cpuNanoseconds / 1e6))
        outcome.notes.append(
            "Cancellation: limit 1, one send holding the slot, 10,000 queued, then cancelled; timed from the call "
                + "until the last of them had ended. cancel_10k_ms uses cancelAll(of:) on the queued type.")
    }
}
