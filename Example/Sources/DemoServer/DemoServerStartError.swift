/// Why ``DemoServer/start(configuration:port:)`` failed without a more specific underlying error.
public enum DemoServerStartError: Error, Sendable, Equatable {
    /// The server stopped before it reported the port it listens on.
    case didNotListen
}
