import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// A Hummingbird server on 127.0.0.1 serving the users list at `GET /users` and a body of any
/// length made on the fly at `GET /bytes/{count}` (see ``GeneratedBody``), in this process.
///
/// The body is encoded once into a `ByteBuffer` and handed out as is, so the server does as little
/// as it can per request: what is left is the floor both clients share.
///
/// By default the server runs on event loops of its own, not on NIO's shared ones that
/// async-http-client's clients use: there, a connection whose two ends happened to land on the
/// same loop was served without waking another thread, and each client's figures depended on where
/// its connections landed (from one run to the next, a sequential client was up to 40 % faster or
/// slower). The `ahc` scenario measures both topologies.
final class LoopbackServer: Sendable {
    /// Which event loops the server runs on.
    enum Topology: String, Sendable, CaseIterable {
        /// Loops of its own, as many as there are cores.
        case ownLoops = "own_loops"
        /// NIO's shared loops (`MultiThreadedEventLoopGroup.singleton`), the ones
        /// async-http-client's clients use by default, as a server and a client in one process
        /// often share them.
        case sharedLoops = "shared_loops"
    }

    /// The address to send requests to, such as `http://127.0.0.1:54321`.
    let baseURL: URL

    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, any Error>
    /// The loops the server made for itself, shut down with it; `nil` on the shared loops.
    private let eventLoops: MultiThreadedEventLoopGroup?

    private init(
        baseURL: URL, serviceGroup: ServiceGroup, runTask: Task<Void, any Error>,
        eventLoops: MultiThreadedEventLoopGroup?
    ) {
        self.baseURL = baseURL
        self.serviceGroup = serviceGroup
        self.runTask = runTask
        self.eventLoops = eventLoops
    }

    /// Over TLS, which protocols the server offers a client.
    enum TLSProtocols: String, Sendable, CaseIterable {
        /// HTTP/1.1 only.
        case http1 = "http1"
        /// HTTP/2, which async-http-client picks when offered, and HTTP/1.1.
        case http2 = "h2"
    }

    /// Starts the server on a port the kernel picks and returns once it accepts connections; with
    /// `tls`, it serves HTTPS with that certificate, at `https://localhost:<port>`, offering
    /// `protocols`.
    static func start(
        topology: Topology = .ownLoops, tls: LoopbackCertificate? = nil, protocols: TLSProtocols = .http1
    ) async throws -> LoopbackServer {
        var logger = Logger(label: "benchmark-server")
        // Per-request logging would be part of what is measured; only problems are worth a line.
        logger.logLevel = .warning

        let router = Router()
        let body = ByteBuffer(bytes: UsersFixture.body)
        router.get(RouterPath(stringLiteral: UsersFixture.path)) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: body)
            )
        }
        GeneratedBody.addRoute(to: router)
        UploadSink.addRoute(to: router)

        let (boundPorts, boundPort) = AsyncStream.makeStream(of: Int?.self)
        // As many loops as NIO's shared group has, so the server alone serves as fast as before.
        let eventLoops: MultiThreadedEventLoopGroup? =
            topology == .ownLoops ? MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount) : nil
        let server: HTTPServerBuilder =
            switch (tls, protocols) {
            case (nil, _): .http1()
            case (let tls?, .http1):
                try .tls(.http1(), tlsConfiguration: tls.serverConfiguration(protocols: ["http/1.1"]))
            case (let tls?, .http2):
                try .http2Upgrade(tlsConfiguration: tls.serverConfiguration(protocols: ["h2", "http/1.1"]))
            }
        let application = Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                // With port 0 only the bound channel knows which port the kernel chose.
                boundPort.yield(channel.localAddress?.port)
                boundPort.finish()
            },
            eventLoopGroupProvider: .shared(eventLoops ?? MultiThreadedEventLoopGroup.singleton),
            logger: logger
        )
        let serviceGroup = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [application], logger: logger))
        let runTask = Task {
            // Ends the wait below if the server fails before it ever listens.
            defer { boundPort.finish() }
            try await serviceGroup.run()
        }
        var ports = boundPorts.makeAsyncIterator()
        guard let port = await ports.next() ?? nil else {
            runTask.cancel()
            _ = await runTask.result
            try? await eventLoops?.shutdownGracefully()
            throw BenchmarkError.serverDidNotStart
        }
        return LoopbackServer(
            baseURL: URL(string: tls == nil ? "http://127.0.0.1:\(port)" : "https://localhost:\(port)")!,
            serviceGroup: serviceGroup, runTask: runTask,
            eventLoops: eventLoops)
    }

    /// Shuts the server down and waits until it has stopped.
    func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = await runTask.result
        try? await eventLoops?.shutdownGracefully()
    }
}
