import ECNetworking
import Foundation
import TestSupport
import Testing

/// 256 MiB down from nginx to a file and up to it from a file, straight and through the proxy, over
/// both transports: the process's resident memory grows by no more than the transfer benchmarks
/// allow, whatever the body's size.
///
/// Peak memory belongs to the whole process, and the other interop tests run beside these, so each
/// transfer runs alone in a child process (the test binary, filtered to ``scenario()``), which
/// reports its own growth.
@Suite(
    "Interop: 256 MiB transfers with flat memory",
    .enabled(if: InteropServers.current != nil, "run by scripts/interop.sh"),
    .enabled(if: ProcessMemory.isMeasurable, "peak resident memory is read from /proc"),
    .enabled(if: !ProcessMemory.isUnderSanitizer, "the plain test run measures memory"),
    .timeLimit(.minutes(4)))
struct TransferMemoryInteropTests {
    /// One transfer.
    enum Scenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `network.download(_:to:)` of nginx's 256 MiB file.
        case download
        /// A POST of a 256 MiB file (`RequestBody.file(at:)`), which nginx reads whole.
        case upload
        /// The download through tinyproxy with basic authentication.
        case downloadThroughProxy
        /// The upload through tinyproxy with basic authentication.
        case uploadThroughProxy

        var testDescription: String { rawValue }
        var isProxied: Bool { self == .downloadThroughProxy || self == .uploadThroughProxy }
    }

    static let size = 256 * 1_048_576
    /// The transfer benchmarks' bar for resident growth over a 1 GiB body.
    static let allowedGrowth = 32 * 1_048_576

    private static let scenarioVariable = "ECNETWORKING_INTEROP_MEMORY_SCENARIO"
    private static let transportVariable = "ECNETWORKING_INTEROP_MEMORY_TRANSPORT"
    private static let outputVariable = "ECNETWORKING_INTEROP_MEMORY_OUTPUT"

    @Test(
        "resident memory grows by at most 32 MiB over a 256 MiB body",
        // One child at a time: each keeps a core busy, and the machine may have two.
        .serialized, arguments: Scenario.allCases, InteropTransport.allCases)
    func residentGrowth(_ scenario: Scenario, _ transport: InteropTransport) async throws {
        let servers = try requireServers()
        var environment = [Self.scenarioVariable: scenario.rawValue, Self.transportVariable: transport.rawValue]
        if scenario.isProxied && transport == .urlSession {
            // FoundationNetworking takes no proxy from its configuration; libcurl reads the
            // process's environment (see the Transports article).
            environment["http_proxy"] =
                "http://\(servers.proxyUser):\(servers.proxyPassword)@127.0.0.1:\(servers.proxyPort)"
        }
        let proxyLogBefore = try servers.proxyLog().count
        let measured = try await ProcessMemory.measureInChildProcess(
            test: "TransferMemoryInteropTests/scenario", environment: environment, outputVariable: Self.outputVariable,
            timeout: .seconds(180))
        let growth = measured.peak - measured.baseline
        #expect(growth <= Self.allowedGrowth, "grew by \(Double(growth) / 1_048_576) MiB")
        // Through the proxy means through it: tinyproxy logged the request (libcurl's by its URL,
        // async-http-client's as a CONNECT tunnel to nginx).
        if scenario.isProxied {
            let logged = String(try servers.proxyLog().dropFirst(proxyLogBefore))
            let path = scenario == .downloadThroughProxy ? "/download.bin" : "/upload"
            #expect(
                logged.contains(transport == .urlSession ? path : "CONNECT 127.0.0.1:\(servers.httpPort)"),
                "tinyproxy logged: \(logged)")
        }
    }

    /// The transfer itself; it runs only in the child process ``residentGrowth(_:_:)`` starts.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[scenarioVariable] != nil, "runs in a child process"))
    func scenario() async throws {
        let environment = ProcessInfo.processInfo.environment
        let scenario = try #require(environment[Self.scenarioVariable].flatMap(Scenario.init(rawValue:)))
        let transport = try #require(environment[Self.transportVariable].flatMap(InteropTransport.init(rawValue:)))
        let output = try #require(environment[Self.outputVariable])
        let servers = try requireServers()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "interop-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The upload's file, made before the baseline (sparse: nothing of it is resident).
        let body = folder.appendingPathComponent("body.bin")
        try #require(FileManager.default.createFile(atPath: body.path, contents: nil))
        let handle = try FileHandle(forWritingTo: body)
        try handle.truncate(atOffset: UInt64(Self.size))
        try handle.close()

        let measured = try await transport.withNetwork(
            baseURL: servers.http, proxy: scenario.isProxied ? servers : nil
        ) { network in
            // Connections, threads and the transport's buffers exist before the baseline.
            _ = try await network.send(NetworkRequest(url: servers.http.appendingPathComponent("hello")))
            let baseline = ProcessMemory.resetPeak()
            switch scenario {
            case .download, .downloadThroughProxy:
                let destination = folder.appendingPathComponent("download.bin")
                let file = try await network.download(
                    NetworkRequest(url: servers.http.appendingPathComponent("download.bin")), to: destination)
                let size = try FileManager.default.attributesOfItem(atPath: file.fileURL.path)[.size] as? Int
                try #require(
                    size == Self.size && file.byteCount == Self.size, "downloaded \(String(describing: size)) bytes")
            case .upload, .uploadThroughProxy:
                let response = try await network.send(
                    NetworkRequest(
                        method: .post, url: servers.http.appendingPathComponent("upload"),
                        body: .file(at: body, contentType: "application/octet-stream")))
                let answer = String(decoding: response.body, as: UTF8.self)
                try #require(answer.contains(#""length":"\#(Self.size)""#), "nginx answered \(answer)")
            }
            return (baseline, ProcessMemory.peak())
        }
        try "\(measured.0) \(measured.1)".write(toFile: output, atomically: true, encoding: .utf8)
    }
}
