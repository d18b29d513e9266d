import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks that `maximumResponseSize` bounds memory, not only the body handed to the caller: a
/// transfer stopped at the limit must not have buffered the rest of the response first.
///
/// Peak memory is a property of a whole process, and other tests run in parallel in this one, so
/// each scenario runs alone in a child process: the test binary itself, filtered to
/// ``scenario()``, which reports its own peak growth to a file. Each runs through the library
/// over every transport (see ``TransportKind``), so the bound holds whichever carries the body.
@Suite("Response size limit bounds memory", .timeLimit(.minutes(2)))
struct ResponseSizeMemoryTests {
    /// A transfer that must stop at a 1 MiB limit.
    enum Scenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// About 100 MB once decoded, about 650 kB on the wire.
        case gzipBomb
        /// 50 MB sent as fast as loopback allows.
        case largeIdentityBody

        var testDescription: String { rawValue }
    }

    /// What a child process measured, in bytes.
    struct Measurement: Sendable {
        /// Resident memory just before the scenario's request.
        let baseline: Int
        /// The process's peak resident memory from then until the transfer had stopped.
        let peak: Int

        var growth: Int { peak - baseline }
    }

    static let scenarioVariable = "ECNETWORKING_MEMORY_SCENARIO"
    static let outputVariable = "ECNETWORKING_MEMORY_OUTPUT"
    static let transportVariable = "ECNETWORKING_MEMORY_TRANSPORT"
    static let limit = 1_048_576
    /// The bar: peak growth of at most a few times the limit.
    static let allowedGrowth = 8 * 1_048_576

    @Test(
        "peak memory grows by at most 8 MiB while a 1 MiB limit stops the transfer",
        .enabled(if: ProcessMemory.isMeasurable, "peak resident memory is read from /proc"),
        // Under ThreadSanitizer the instrumented child inflating a gzip bomb takes both cores for
        // seconds, starving every timing bound in the run, and its shadow memory says nothing about
        // the library's; the plain run measures it.
        .enabled(if: !ProcessMemory.isUnderSanitizer, "the plain test run measures memory"),
        // One child at a time: each is busy for a second or two, and the machine may have two cores.
        .serialized,
        arguments: Scenario.allCases, TransportKind.allCases)
    func peakMemoryGrowth(_ scenario: Scenario, _ kind: TransportKind) async throws {
        let measurement = try await Self.measureInChildProcess(scenario, kind)
        let mebibytes = Double(measurement.growth) / 1_048_576
        #expect(
            measurement.growth <= Self.allowedGrowth,
            "peak grew by \(mebibytes) MiB")
    }

    /// The scenario itself; it runs only in the child process that ``peakMemoryGrowth(_:)`` starts.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[scenarioVariable] != nil, "runs in a child process"))
    func scenario() async throws {
        let environment = ProcessInfo.processInfo.environment
        let scenario = try #require(environment[Self.scenarioVariable].flatMap(Scenario.init(rawValue:)))
        let kind = try #require(environment[Self.transportVariable].flatMap(TransportKind.init(rawValue:)))
        let output = try #require(environment[Self.outputVariable])
        let measurement = try await Self.run(scenario, kind)
        try "\(measurement.baseline) \(measurement.peak)".write(toFile: output, atomically: true, encoding: .utf8)
    }

    private static func run(_ scenario: Scenario, _ kind: TransportKind) async throws -> Measurement {
        // Built before the baseline: the server's copy of the body is not the client's growth.
        let body: LoopbackHTTPServer.Reply =
            switch scenario {
            case .gzipBomb:
                .response(
                    status: 200, headers: ["Content-Encoding": "gzip"],
                    body: GzipFixture.repeating(0x64, matchCount: 400_000).compressed)
            case .largeIdentityBody:
                .response(status: 200, body: Data(repeating: 0x65, count: 50_000_000))
            }
        let server = try LoopbackHTTPServer { request in
            request.path == "/body" ? body : .response(status: 200, body: Data("warm".utf8))
        }
        defer { server.stop() }
        return try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.maximumResponseSize = limit }) {
            network in
            let warm = NetworkRequest(url: server.baseURL.appendingPathComponent("warm"))
            // Connections, threads and the transport's buffers exist before the baseline.
            _ = try await network.send(warm)

            let baseline = ProcessMemory.resetPeak()
            do {
                _ = try await network.send(NetworkRequest(url: server.baseURL.appendingPathComponent("body")))
                throw MeasurementFailed(reason: "expected responseTooLarge, got a response")
            } catch NetworkError.responseTooLarge {
            } catch let error as MeasurementFailed {
                throw error
            } catch {
                throw MeasurementFailed(reason: "expected responseTooLarge, got \(error)")
            }
            // The failure may be reported before the transfer stops; once the server sees the
            // connection closed, and a later request has completed, the peak has been reached.
            try await waitUntil { server.openConnectionCount == 0 }
            _ = try await network.send(warm)
            return Measurement(baseline: baseline, peak: ProcessMemory.peak())
        }
    }

    private struct MeasurementFailed: Error {
        let reason: String
    }

    private static func measureInChildProcess(_ scenario: Scenario, _ kind: TransportKind) async throws
        -> Measurement
    {
        let numbers = try await ProcessMemory.measureInChildProcess(
            test: "ResponseSizeMemoryTests/scenario",
            environment: [scenarioVariable: scenario.rawValue, transportVariable: kind.rawValue],
            outputVariable: outputVariable)
        return Measurement(baseline: numbers.baseline, peak: numbers.peak)
    }
}
