import Foundation
import Synchronization

/// The benchmark executable: runs the chosen scenarios one after another, each in a fresh process
/// (never at the same time, so none competes with another for the two cores, pollutes another's
/// allocation count or leaves it its pending timers), prints each scenario's table, then every
/// figure as `RESULT <name> <value>`. With `--repeat N` each scenario runs N times, each in a
/// fresh process, and every figure is the median of the N (``RepeatedOutcome``).
///
/// Exits 1 when an invariant breaks (more than 64 in flight, a cancelled send that ended otherwise,
/// a failed request) or a scenario fails; a figure above its bar is reported, not fatal.
@main
enum Benchmarks {
    /// Runs the benchmarks in a detached task and parks the main thread on a semaphore until they
    /// end. Not an `async` main: that hands the main thread to `dispatchMain()`, whose `sigsuspend`
    /// crashes valgrind 3.19 (the profiling tool here), and nothing in the benchmarks needs the main queue.
    static func main() {
        let options: Options
        do {
            options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            log("error: \(error)")
            exit(2)
        }
        let exitCode = Mutex<Int32>(1)
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            let code =
                if let probe = options.probe {
                    await runProbe(probe)
                } else if options.child {
                    await runChild(options)
                } else {
                    await runAll(options)
                }
            exitCode.withLock { $0 = code }
            finished.signal()
        }
        finished.wait()
        exit(exitCode.withLock { $0 })
    }

    /// Runs the chosen scenarios, prints the report, and returns the exit code.
    private static func runAll(_ options: Options) async -> Int32 {
        let clock = ContinuousClock()
        let start = clock.now

        let counter = await AllocationCounter.selfCheck()
        var failures: [String] = []
        if !counter.works {
            failures.append(
                "allocation counting does not work: 1,000 objects counted as \(counter.counted) allocations")
        }

        var outcomes: [ScenarioOutcome] = []
        for scenario in options.scenarios {
            log("running \(scenario.rawValue)\(options.quick ? " (quick)" : "")…")
            let scenarioStart = clock.now
            do {
                var runs: [ScenarioOutcome] = []
                for index in 0..<options.repeatCount {
                    if options.repeatCount > 1 { log("  run \(index + 1) of \(options.repeatCount)") }
                    if scenario.isDefault && !options.inProcess {
                        runs.append(try await ScenarioProcess.run(scenario, quick: options.quick))
                    } else {
                        runs.append(try await run(scenario, options: options))
                    }
                }
                outcomes.append(RepeatedOutcome.combine(runs))
            } catch {
                failures.append("\(scenario.rawValue) failed: \(error)")
            }
            log("  \(scenario.rawValue) took \(Format.number((clock.now - scenarioStart).milliseconds / 1000)) s")
        }

        let repeats = options.repeatCount > 1 ? ", each scenario \(options.repeatCount) times (medians)" : ""
        print("ECNetworking benchmarks — \(options.quick ? "quick" : "full") run\(repeats), release build")
        print("Allocation counter self-check: 1,000 objects → \(counter.counted) allocations counted.")
        for outcome in outcomes {
            print("\n== \(outcome.title) ==")
            print(outcome.table.render())
            for note in outcome.notes { print("  • \(note)") }
        }
        let violations = outcomes.flatMap(\.violations) + failures
        print("")
        for result in outcomes.flatMap(\.results) {
            print("RESULT \(result.name) \(result.value)")
        }
        if options.repeatCount > 1 {
            print("")
            for result in outcomes.flatMap(\.results) {
                print("RUNS \(result.name) \(result.runs.joined(separator: " "))")
            }
        }
        print("RESULT invariant_violations \(violations.count)")
        print("RESULT wall_seconds \(Format.number((clock.now - start).milliseconds / 1000))")
        for violation in violations {
            print("VIOLATION \(violation)")
        }
        return violations.isEmpty ? 0 : 1
    }

    /// Runs the one scenario a parent asked for and hands its outcome back on standard output.
    private static func runChild(_ options: Options) async -> Int32 {
        guard let scenario = options.scenarios.first else { return 2 }
        do {
            try ScenarioProcess.hand(try await run(scenario, options: options))
            return 0
        } catch {
            log("\(scenario.rawValue) failed: \(error)")
            return 1
        }
    }

    /// Measures one transfer for the scenario that started this process and hands the figures back.
    private static func runProbe(_ probe: TransferProbe) async -> Int32 {
        do {
            try await probe.runAndHand()
            return 0
        } catch {
            log("\(probe.method.rawValue) failed: \(error)")
            return 1
        }
    }

    /// Runs one scenario on the global executor, as an app's background work would.
    private static func run(_ scenario: Options.Scenario, options: Options) async throws -> ScenarioOutcome {
        switch scenario {
        case .loopback: try await LoopbackScenario(quick: options.quick).run()
        case .pipeline: try await PipelineScenario(quick: options.quick).run()
        case .scale: try await ScaleScenario(quick: options.quick).run()
        case .logging: try await LoggingScenario(quick: options.quick).run()
        case .ahc: try await AsyncHTTPClientScenario(quick: options.quick).run()
        case .instructions: try await InstructionCountScenario(quick: options.quick).run()
        case .transfer: try await TransferScenario(quick: options.quick).run()
        case .resume: try await TransferScenario(quick: options.quick).runResumption()
        case .profileLibrary:
            try await ProfileScenario(
                library: true, iterations: options.iterations, actionCount: options.actionCount,
                coalescing: options.coalescing, timeout: options.timeout, logging: options.logging
            ).run()
        case .profileCancel:
            try await profileCancellation(viaTasks: options.cancelViaTasks)
        case .profileAsyncHTTPClientRaw, .profileAsyncHTTPClientLibrary:
            try await AsyncHTTPClientProfile(
                library: scenario == .profileAsyncHTTPClientLibrary, iterations: options.iterations,
                concurrency: options.concurrency, timeout: options.timeout
            ).run()
        case .profileBaseline:
            try await ProfileScenario(library: false, iterations: options.iterations, actionCount: options.actionCount)
                .run()
        }
    }

    /// One bulk cancellation on its own, reported in a one-row table.
    private static func profileCancellation(viaTasks: Bool) async throws -> ScenarioOutcome {
        let figures = try await CancellationRun(method: viaTasks ? .tasks : .network).run()
        var outcome = ScenarioOutcome(
            title:
                "Profile: cancel 10,000 queued sends \(viaTasks ? "by cancelling their tasks" : "with cancelAll(of:)")",
            table: TextTable(header: ["until all ended", "CPU", "cancelling call", "cancelled"]))
        outcome.table.add(
            "\(Format.number(figures.elapsed.milliseconds)) ms", "\(Format.number(figures.cpuNanoseconds / 1e6)) ms",
            "\(Format.number(figures.callDuration.milliseconds)) ms", "\(figures.cancelled)")
        outcome.result("profile_cancel_ms", Format.number(figures.elapsed.milliseconds))
        return outcome
    }

    /// Progress goes to standard error, so standard output holds only the report.
    private static func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
