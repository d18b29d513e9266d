import AsyncHTTPClient
import ECNetworking
import Foundation

/// A client that moves a body to or from the loopback server by one ``TransferMethod`` and checks
/// that every byte arrived (and, for a download, is on disk); the file is removed afterwards.
struct TransferClient: Sendable {
    /// How it takes the body.
    let method: TransferMethod
    /// Takes `byteCount` bytes, to the file when there is one, and returns how many arrived.
    private let transfer: @Sendable (_ byteCount: Int, _ file: URL) async throws -> Int
    /// Shuts down what it started (async-http-client's clients).
    private let shutdownClients: @Sendable () async -> Void

    /// The URLSession transport of every library client in the process, of the raw client's
    /// configuration, made once: FoundationNetworking crashes in libcurl teardown when sessions
    /// come and go (the Linux notes of the library's documentation say more).
    static let urlSessionTransport = URLSessionTransport(configuration: LoopbackScenario.sessionConfiguration())

    /// The number of actions of each library client: as in the loopback scenarios, one that adds a
    /// header (the raw clients send it too) and one that passes the response on.
    private static let actionCount = 2

    /// Connections per host of both async-http-client clients: the transport's default.
    static let connectionsPerHost = AsyncHTTPClientTransport.Configuration().maximumConnectionsPerHost

    /// A client of `method` to the server at `baseURL`; only what `method` needs is created.
    init(_ method: TransferMethod, baseURL: URL) {
        self.method = method
        let headers = BenchmarkActions.headers(forActionCount: Self.actionCount)
        switch (method.kind, method.usesAsyncHTTPClient) {
        case (.rawUpload, false):
            let raw = RawURLSessionUpload(baseURL: baseURL, headers: headers)
            transfer = { byteCount, _ in try await raw.upload(UploadSource.prepare(byteCount: byteCount)) }
            shutdownClients = {}
        case (.rawUpload, true):
            let client = RawAsyncHTTPClient.makeClient(maximumConnectionsPerHost: Self.connectionsPerHost)
            let raw = RawAsyncHTTPClient(client: client, baseURL: baseURL, headers: headers)
            transfer = { byteCount, _ in
                try await raw.upload(UploadSource.prepare(byteCount: byteCount), byteCount: byteCount)
            }
            shutdownClients = { try? await client.shutdown() }
        case (.raw, false):
            let raw = RawURLSessionDownload(baseURL: baseURL, headers: headers)
            transfer = { try await raw.download(byteCount: $0, to: $1) }
            shutdownClients = {}
        case (.raw, true):
            let client = RawAsyncHTTPClient.makeClient(maximumConnectionsPerHost: Self.connectionsPerHost)
            let raw = RawAsyncHTTPClient(client: client, baseURL: baseURL, headers: headers)
            transfer = { try await raw.download(byteCount: $0, to: $1) }
            shutdownClients = { try? await client.shutdown() }
        case (_, false):
            let network = Self.withActions(
                URLSessionNetwork(
                    configuration: NetworkConfiguration(baseURL: baseURL), session: Self.urlSessionTransport))
            transfer = Self.libraryTransfer(network, kind: method.kind)
            shutdownClients = {}
        case (_, true):
            let transport = AsyncHTTPClientTransport(
                configuration: .init(maximumConnectionsPerHost: Self.connectionsPerHost))
            let network = Self.withActions(
                URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL), transport: transport))
            transfer = Self.libraryTransfer(network, kind: method.kind)
            shutdownClients = { try? await transport.shutdown() }
        }
    }

    /// Takes a body of `byteCount` bytes; throws if fewer or more arrived, or the file holds
    /// another length.
    func run(byteCount: Int) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ecnetworking-benchmark-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let received = try await transfer(byteCount, file)
        let writesFile = [.raw, .download].contains(method.kind)
        let stored = writesFile ? try Self.size(of: file) : received
        guard received == byteCount, stored == byteCount else {
            throw BenchmarkError.unexpectedByteCount(expected: byteCount, received: received, stored: stored)
        }
    }

    /// Takes a smaller body (a quarter of `byteCount`, at most 16 MiB), so that the sessions,
    /// connections, threads and allocator pools exist before a measured transfer of `byteCount`.
    func warmUp(before byteCount: Int) async throws {
        try await run(byteCount: Self.warmUpByteCount(before: byteCount))
    }

    /// The length of the warm-up transfer before one of `byteCount` bytes.
    static func warmUpByteCount(before byteCount: Int) -> Int {
        min(byteCount / 4, 16 * 1_048_576)
    }

    /// Shuts down the client's async-http-client, if it has one.
    func shutdown() async {
        await shutdownClients()
    }

    /// `network` with the library clients' actions added.
    static func withActions(_ network: URLSessionNetwork) -> URLSessionNetwork {
        for action in BenchmarkActions.make(count: actionCount) { network.add(action: action) }
        return network
    }

    /// The library's download to the file, or its stream read to the end (at the paced rate for
    /// ``TransferMethod/Kind/pacedStream``) with every chunk dropped.
    private static func libraryTransfer(
        _ network: URLSessionNetwork, kind: TransferMethod.Kind
    ) -> @Sendable (Int, URL) async throws -> Int {
        if kind.isUpload {
            return { byteCount, _ in
                let body: UploadRequest.Body =
                    switch kind {
                    case .uploadStream: .stream(byteCount: byteCount)
                    case .uploadForm: .form(try UploadSource.prepare(byteCount: byteCount))
                    default: .file(try UploadSource.prepare(byteCount: byteCount))
                    }
                let received = UploadSink.receivedCount(in: try await network.send(UploadRequest(body: body))) ?? -1
                // A form's body is its part plus the boundaries and the part's headers, under 1 KiB.
                guard kind == .uploadForm else { return received }
                return (byteCount..<byteCount + 1_024).contains(received) ? byteCount : received
            }
        }
        guard kind == .download else {
            return { byteCount, _ in
                let stream = try await network.stream(GeneratedBodyRequest(byteCount: byteCount))
                guard stream.statusCode == 200 else { throw BenchmarkError.unexpectedStatus(stream.statusCode) }
                let pace =
                    kind == .pacedStream ? ReadingPace(bytesPerSecond: TransferMethod.Kind.pacedBytesPerSecond) : nil
                var received = 0
                for try await chunk in stream {
                    received += chunk.count
                    try await pace?.wait(afterReading: received)
                }
                return received
            }
        }
        return { byteCount, file in
            let downloaded = try await network.download(GeneratedBodyRequest(byteCount: byteCount), to: file)
            let status = downloaded.response.statusCode
            guard status == 200 else { throw BenchmarkError.unexpectedStatus(status) }
            return Int(downloaded.byteCount)
        }
    }

    /// The length of `file` in bytes, -1 when the file system does not say.
    static func size(of file: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes[.size] as? NSNumber)?.intValue ?? -1
    }
}
