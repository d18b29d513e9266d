import Foundation
internal import Hummingbird
internal import HummingbirdTLS
internal import Logging
internal import NIOCore
internal import ServiceLifecycle

/// A running demo API server on 127.0.0.1, for examples and tests of the networking library.
///
/// ```swift
/// let server = try await DemoServer.start(configuration: .init(tokenLifetime: .seconds(60)))
/// let (data, _) = try await URLSession.shared.data(from: server.baseURL.appending(path: "flaky"))
/// let loginAttempts = await server.recorder.loginCount
/// await server.stop()
/// ```
public final class DemoServer: Sendable {
    /// The address to send requests to, for example `http://127.0.0.1:54321`.
    public let baseURL: URL
    /// The TCP port the server listens on.
    public let port: Int
    /// What the server has received so far.
    public let recorder: RequestRecorder
    /// The configuration the server was started with.
    public let configuration: DemoServerConfiguration

    private let catalog: CatalogStore
    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, any Error>

    private init(
        port: Int,
        baseURL: URL,
        recorder: RequestRecorder,
        configuration: DemoServerConfiguration,
        catalog: CatalogStore,
        serviceGroup: ServiceGroup,
        runTask: Task<Void, any Error>
    ) {
        self.port = port
        self.baseURL = baseURL
        self.recorder = recorder
        self.configuration = configuration
        self.catalog = catalog
        self.serviceGroup = serviceGroup
        self.runTask = runTask
    }

    /// Starts a server and returns once it accepts connections.
    ///
    /// - Parameters:
    ///   - configuration: Credentials, token lifetime and the other settings of the server.
    ///   - port: The port to listen on; `0`, the default, picks a free one so that several servers can run at once.
    ///   - maximumGracefulShutdownDuration: How long ``stop()`` lets requests still running finish
    ///     before it ends them.
    ///   - tls: Certificates to serve HTTPS with; then ``baseURL`` is `https://localhost:<port>`,
    ///     the name the certificate carries. `nil`, the default, serves plain HTTP.
    /// - Throws: ``DemoServerStartError`` or the underlying error when the server cannot listen, for example
    ///   because `port` is taken.
    public static func start(
        configuration: DemoServerConfiguration = DemoServerConfiguration(),
        port: Int = 0,
        maximumGracefulShutdownDuration: Duration = .seconds(4),
        tls: DemoCertificates? = nil
    ) async throws -> DemoServer {
        let recorder = RequestRecorder()
        let catalog = CatalogStore(products: configuration.initialProducts)
        let (boundPorts, boundPortContinuation) = AsyncStream.makeStream(of: Int?.self)
        let logger = makeLogger()
        let address = BindAddress.hostname("127.0.0.1", port: port)
        let application = Application(
            router: DemoRouter.make(configuration: configuration, recorder: recorder, catalog: catalog),
            server: try tls.map { try .tls(.http1(), tlsConfiguration: $0.serverConfiguration()) } ?? .http1(),
            configuration: ApplicationConfiguration(address: address, serverName: "DemoServer"),
            onServerRunning: { channel in
                // With port 0 the kernel picks the port, so only the bound channel knows it.
                boundPortContinuation.yield(channel.localAddress?.port)
                boundPortContinuation.finish()
            },
            logger: logger
        )
        var groupConfiguration = ServiceGroupConfiguration(services: [application], logger: logger)
        // A request still running (a long `/slow`) must not keep `stop()` waiting forever.
        groupConfiguration.maximumGracefulShutdownDuration = maximumGracefulShutdownDuration
        let serviceGroup = ServiceGroup(configuration: groupConfiguration)
        let runTask = Task {
            // Ends the wait in `start` if the server fails before it ever listens.
            defer { boundPortContinuation.finish() }
            try await serviceGroup.run()
        }

        var iterator = boundPorts.makeAsyncIterator()
        guard let boundPort = await iterator.next() ?? nil else {
            runTask.cancel()
            try await runTask.value
            throw DemoServerStartError.didNotListen
        }
        let origin = tls == nil ? "http://127.0.0.1" : "https://localhost"
        guard let baseURL = URL(string: "\(origin):\(boundPort)") else {
            await serviceGroup.triggerGracefulShutdown()
            _ = await runTask.result
            throw DemoServerStartError.didNotListen
        }
        return DemoServer(
            port: boundPort,
            baseURL: baseURL,
            recorder: recorder,
            configuration: configuration,
            catalog: catalog,
            serviceGroup: serviceGroup,
            runTask: runTask
        )
    }

    /// The `ETag` `GET /catalog` answers with now, quotes included, such as `"catalog-v1"`.
    public var catalogETag: String {
        get async { await catalog.current.entityTag }
    }

    /// Changes the catalog as `POST /catalog/bump` does: adds a product, which gives the catalog a
    /// new `ETag` and `Last-Modified`, so the next revalidation gets a `200` instead of a `304`.
    ///
    /// - Returns: The catalog's new `ETag`.
    @discardableResult
    public func bumpCatalog() async -> String {
        await catalog.bump().entityTag
    }

    /// Stops the server and returns once its port is closed.
    ///
    /// Requests already running get up to two seconds to finish; calling `stop()` again does nothing.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = await runTask.result
    }

    /// Waits until the server stops, for a command that serves until it is interrupted.
    ///
    /// - Throws: The error that made the server stop, if it did not stop through ``stop()``.
    public func waitUntilStopped() async throws {
        try await runTask.value
    }

    private static func makeLogger() -> Logger {
        var logger = Logger(label: "DemoServer")
        // Quiet by default: tests start many servers, and each would log its start and every shutdown step.
        let requestedLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap {
            Logger.Level(rawValue: $0.lowercased())
        }
        logger.logLevel = requestedLevel ?? .warning
        return logger
    }
}
