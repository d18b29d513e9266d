import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if OpenAPI
    import OpenAPIRuntime
#endif

/// The memory column of the promise matrix: against a peer that sends without end, every way to
/// send, over every transport, keeps resident memory bounded, and ends with a typed error where
/// it must stop. Each cell runs alone in a child process (see ``ProcessMemory``), since peak
/// memory belongs to a whole process.
///
/// What each way does with a body that never ends: a send (and an upload's answer) stops at
/// ``NetworkConfiguration/maximumResponseSize`` with `responseTooLarge` (without a limit a send
/// holds whatever the server sends, which the docs say); a stream and an OpenAPI operation read
/// as far as their reader goes, a reader that pauses first included; a download writes to its
/// file until the limit; an event that never ends fails with `eventTooLarge`; and an error page
/// that never ends is cut at ``NetworkConfiguration/maximumErrorBodySize`` where the body is
/// streamed, and at `maximumResponseSize` where it is read whole.
@Suite("Promise matrix: memory stays bounded against a peer that never stops", .timeLimit(.minutes(5)))
struct PromiseMatrixMemoryTests {
    static let wayVariable = "ECNETWORKING_MATRIX_WAY"
    static let transportVariable = "ECNETWORKING_MATRIX_TRANSPORT"
    static let outputVariable = "ECNETWORKING_MATRIX_OUTPUT"
    /// The limit a send or an upload's answer is held to.
    static let sendLimit = 8 * 1_048_576
    /// How far a stream's reader reads, and where a download is stopped: more than the bar, so
    /// that a body held whole would fail it.
    static let readLength = 64 * 1_048_576
    /// The bar: peak resident growth while the peer sends without end.
    static let allowedGrowth = 24 * 1_048_576

    @Test(
        "peak memory grows by at most 24 MiB while a peer sends without end, a body or an error page",
        .enabled(if: ProcessMemory.isMeasurable, "peak resident memory is read from /proc"),
        .enabled(if: !ProcessMemory.isUnderSanitizer, "the plain test run measures memory"),
        .serialized,
        arguments: SendWay.allCases, TransportKind.allCases)
    func boundedMemory(way: SendWay, kind: TransportKind) async throws {
        let (baseline, peak) = try await ProcessMemory.measureInChildProcess(
            test: "PromiseMatrixMemoryTests/cell",
            environment: [Self.wayVariable: way.rawValue, Self.transportVariable: kind.rawValue],
            outputVariable: Self.outputVariable)
        #expect(peak - baseline <= Self.allowedGrowth, "peak grew by \(Double(peak - baseline) / 1_048_576) MiB")
    }

    /// One cell; it runs only in the child process ``boundedMemory(way:kind:)`` starts.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[wayVariable] != nil, "runs in a child process"))
    func cell() async throws {
        let environment = ProcessInfo.processInfo.environment
        let way = try #require(environment[Self.wayVariable].flatMap(SendWay.init(rawValue:)))
        let kind = try #require(environment[Self.transportVariable].flatMap(TransportKind.init(rawValue:)))
        let output = try #require(environment[Self.outputVariable])

        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let measurement = try await kind.withNetwork(
            baseURL: server.server.baseURL,
            configure: { configuration in
                switch way {
                case .send, .uploadFile, .uploadStream, .uploadForm, .storage, .storedThenFresh, .completionHandler,
                    .responses:
                    configuration.maximumResponseSize = Self.sendLimit
                case .download, .resumedDownload: configuration.maximumResponseSize = Self.readLength
                default: break
                }
            }
        ) { network in
            // Connections, threads and the transport's buffers exist before the baseline.
            _ = try await way.run(server.request(.ok), through: network, folder: folder.url)
            let baseline = ProcessMemory.resetPeak()
            try await Self.readEndlessBody(way, network: network, server: server, folder: folder)
            try await Self.readEndlessErrorPage(way, network: network, server: server, folder: folder)
            // A later send completes only once the transport has let go of the stopped transfers.
            _ = try await way.run(server.request(.ok), through: network, folder: folder.url)
            return "\(baseline) \(ProcessMemory.peak())"
        }
        try measurement.write(toFile: output, atomically: true, encoding: .utf8)
    }

    private static func readEndlessBody(
        _ way: SendWay, network: any Network, server: MatrixServer, folder: ScratchFolder
    ) async throws {
        let request = server.request(.endless)
        switch way {
        case .stream:
            let stream = try await network.stream(request)
            try await readSlowly(stream)
        case .serverSentEvents:
            do {
                try await way.run(request, through: network, folder: folder.url)
                Issue.record("an event that never ends was delivered")
            } catch ServerSentEventError.eventTooLarge {}
        #if OpenAPI
            case .openAPI:
                let (_, body) = try await SendWay.operation(request, through: network)
                try await readSlowly(try #require(body).map { Data($0) })
        #endif
        default:
            do {
                try await way.run(request, through: network, folder: folder.url)
                Issue.record("a body that never ends was delivered")
            } catch NetworkError.responseTooLarge {}
        }
    }

    /// Reads `chunks` with a pause after the first, as a reader that is busy for a moment, until
    /// ``readLength`` bytes have arrived.
    private static func readSlowly<Chunks: AsyncSequence>(_ chunks: Chunks) async throws where Chunks.Element == Data {
        var read = 0
        for try await chunk in chunks {
            if read == 0 { try await Task.sleep(for: .milliseconds(300)) }
            read += chunk.count
            if read >= readLength { return }
        }
        Issue.record("a body that never ends ended after \(read) bytes")
    }

    private static func readEndlessErrorPage(
        _ way: SendWay, network: any Network, server: MatrixServer, folder: ScratchFolder
    ) async throws {
        do {
            let outcome = try await way.run(server.request(.endlessError), through: network, folder: folder.url)
            // A generated client gets the status as a response, with the page cut at the limit.
            #expect(way.isOpenAPI && outcome.status == 500, "\(way) succeeded on an endless error page")
            #expect(outcome.body.count <= NetworkConfiguration(baseURL: server.server.baseURL).maximumErrorBodySize)
        } catch {
            switch SendWay.sendError(error) {
            case NetworkError.unacceptableStatusCode(let response):
                #expect(response.statusCode == 500)
                #expect(response.body.count <= 64 * 1024)
            case NetworkError.responseTooLarge:
                // A whole-body send reads an error page as it reads any body: up to its limit.
                #expect(Self.holdsWholeBody(way), "\(way) read an error page to the response size limit")
            default:
                throw error
            }
        }
    }

    /// Whether `way` reads the whole body before it returns, so that its limit is
    /// ``NetworkConfiguration/maximumResponseSize``, for an error page too.
    private static func holdsWholeBody(_ way: SendWay) -> Bool {
        switch way {
        case .send, .uploadFile, .uploadStream, .uploadForm, .storage, .storedThenFresh, .completionHandler, .responses:
            true
        default: false
        }
    }
}
