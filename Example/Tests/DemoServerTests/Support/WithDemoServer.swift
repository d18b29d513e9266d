import DemoServer

/// Runs `body` against a freshly started server on a free port and stops the server afterwards, even on failure.
func withDemoServer(
    _ configuration: DemoServerConfiguration = DemoServerConfiguration(),
    _ body: (DemoServer, TestClient) async throws -> Void
) async throws {
    let server = try await DemoServer.start(configuration: configuration)
    do {
        try await body(server, TestClient(server: server))
        await server.stop()
    } catch {
        await server.stop()
        throw error
    }
}

/// Polls `condition` until it holds or `timeout` passes, for state the server updates after replying.
///
/// 15 s by default: it returns as soon as the condition holds, so the bound only rules out
/// "never"; on a loaded machine the server once took more than 3 s to notice a dropped connection.
func eventually(
    timeout: Duration = .seconds(15),
    _ condition: () async -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
        if await condition() {
            return true
        }
        try await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}
