import Foundation

/// The command line: `Benchmarks [--quick] [--only NAME[,NAME…]] [--repeat N] [--iterations N] [--actions K]
/// [--concurrency N] [--no-coalescing] [--no-timeout] [--logging] [--via-tasks] [--in-process]`, and for the process
/// of one transfer measurement, `--probe METHOD --url URL --bytes N`.
///
/// Hand-parsed, so the package needs no argument-parsing dependency for four flags.
struct Options: Sendable {
    /// The scenarios that can be picked with `--only`.
    enum Scenario: String, CaseIterable, Sendable {
        case loopback, pipeline, scale, logging
        /// The library over AsyncHTTPClientTransport against raw async-http-client and URLSession.
        case ahc
        /// Instructions per send, counted by callgrind over the two profiling loops.
        case instructions
        /// A 1 GiB body downloaded to a file and read as a stream: resident memory, each in a
        /// process of its own, and time against the raw clients.
        case transfer
        /// Only the last part of ``transfer``: a resumed download's time against a whole
        /// download's, over each transport, to measure that figure alone in a few minutes.
        case resume
        /// Only the library's send loop through the in-memory session, for `valgrind --tool=callgrind`.
        case profileLibrary = "profile-library"
        /// Only the hand-written loop, to subtract from ``profileLibrary`` under callgrind.
        case profileBaseline = "profile-baseline"
        /// Only the bulk cancellation of 10,000 queued sends, for `strace -c` or callgrind.
        case profileCancel = "profile-cancel"
        /// Only raw async-http-client against the loopback server, for a profiler.
        case profileAsyncHTTPClientRaw = "profile-ahc-raw"
        /// Only the library over `AsyncHTTPClientTransport` against the loopback server, for a profiler.
        case profileAsyncHTTPClientLibrary = "profile-ahc-library"

        /// Whether a plain run (no `--only`) includes it; the profiling runs are only made on request,
        /// and ``resume`` is a part of ``transfer``, which a plain run measures whole.
        var isDefault: Bool { !rawValue.hasPrefix("profile-") && self != .resume }
    }

    /// Small counts, so every scenario finishes in well under a minute.
    var quick = false
    /// The scenarios to run, in this order.
    var scenarios = Scenario.allCases.filter(\.isDefault)
    /// How many times each scenario runs, each time in a fresh process; every `RESULT` is then
    /// the median of the runs.
    var repeatCount = 1
    /// How many sends the profiling loops make.
    var iterations = 20_000
    /// How many actions the profiling loops install.
    var actionCount = 4
    /// How many requests the `profile-ahc-` loops keep in flight.
    var concurrency = 1
    /// Whether the profiled library loop turns coalescing off, to measure what it costs.
    var coalescing = true
    /// Whether the profiled library loop keeps the default 60 s timeout, to measure what it costs.
    var timeout = true
    /// Whether the profiled library loop logs (to `.discard`), to measure what logging costs.
    var logging = false
    /// Whether `profile-cancel` cancels the calling tasks instead of calling `cancelAll(of:)`.
    var cancelViaTasks = false
    /// Whether to run every scenario in this process rather than each in a fresh one.
    var inProcess = false
    /// Set by the parent when it starts a scenario in a process of its own (``ScenarioProcess``):
    /// run that one scenario and print its outcome as JSON.
    var child = false
    /// Set by the transfer scenario when it starts a process for one measurement (see
    /// ``TransferProbe``): the method, the server's address and the body's length.
    var probe: TransferProbe?

    /// Reads the options from `arguments` (without the program name).
    init(arguments: [String]) throws {
        var remaining = arguments[...]
        var probeMethod: TransferMethod?
        var probeURL: URL?
        var probeByteCount: Int?
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                quick = true
            case "--only":
                guard let names = remaining.popFirst() else { throw OptionsError.missingValue(argument) }
                scenarios = try names.split(separator: ",").map { name in
                    guard let scenario = Scenario(rawValue: String(name)) else {
                        throw OptionsError.unknownScenario(String(name))
                    }
                    return scenario
                }
            case "--repeat":
                repeatCount = max(1, try Self.number(after: argument, in: &remaining))
            case "--iterations":
                iterations = try Self.number(after: argument, in: &remaining)
            case "--actions":
                actionCount = try Self.number(after: argument, in: &remaining)
            case "--concurrency":
                concurrency = max(1, try Self.number(after: argument, in: &remaining))
            case "--no-coalescing":
                coalescing = false
            case "--no-timeout":
                timeout = false
            case "--logging":
                logging = true
            case "--via-tasks":
                cancelViaTasks = true
            case "--in-process":
                inProcess = true
            case "--child":
                child = true
            case "--probe":
                guard let name = remaining.popFirst() else { throw OptionsError.missingValue(argument) }
                guard let method = TransferMethod(rawValue: name) else { throw OptionsError.unknownArgument(name) }
                probeMethod = method
            case "--url":
                guard let text = remaining.popFirst(), let url = URL(string: text) else {
                    throw OptionsError.missingValue(argument)
                }
                probeURL = url
            case "--bytes":
                probeByteCount = try Self.number(after: argument, in: &remaining)
            default:
                throw OptionsError.unknownArgument(argument)
            }
        }
        if let probeMethod {
            guard let probeURL, let probeByteCount else { throw OptionsError.missingValue("--probe") }
            probe = TransferProbe(method: probeMethod, baseURL: probeURL, byteCount: probeByteCount)
        }
    }

    private static func number(after flag: String, in remaining: inout ArraySlice<String>) throws -> Int {
        guard let text = remaining.popFirst(), let value = Int(text), value >= 0 else {
            throw OptionsError.missingValue(flag)
        }
        return value
    }
}

/// A command line that could not be read.
enum OptionsError: Error, CustomStringConvertible {
    /// A flag without its value.
    case missingValue(String)
    /// A name after `--only` that is no scenario.
    case unknownScenario(String)
    /// Anything else.
    case unknownArgument(String)

    /// The message printed before exiting with status 2.
    var description: String {
        let names = Options.Scenario.allCases.map(\.rawValue).joined(separator: ", ")
        switch self {
        case .missingValue(let flag): return "\(flag) needs a value"
        case .unknownScenario(let name): return "unknown scenario \"\(name)\" (known: \(names))"
        case .unknownArgument(let argument):
            return "unknown argument \"\(argument)\"; usage: Benchmarks [--quick] [--only \(names)] [--repeat N] "
                + "[--iterations N] [--actions K] [--concurrency N] [--no-coalescing] [--no-timeout] [--logging] [--via-tasks] [--in-process]"
        }
    }
}
