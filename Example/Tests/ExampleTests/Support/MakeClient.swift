import DemoClient
import DemoServer
import ECNetworking

/// A client of `server` as the tests use it: the library's log discarded (the trace is what the
/// tests look at), the stages recorded in `events` when given.
func makeClient(
    for server: DemoServer,
    events: StageEventLog? = nil,
    configure: (inout NetworkConfiguration) -> Void = { _ in }
) -> DemoClient {
    DemoClient(baseURL: server.baseURL, logSink: .discard, stageObserver: events?.append, configure: configure)
}

/// Runs `operation` `count` times at once and returns the results in index order.
func concurrently<Value: Sendable>(
    _ count: Int,
    _ operation: @escaping @Sendable (Int) async throws -> Value
) async throws -> [Value] {
    try await withThrowingTaskGroup(of: (Int, Value).self) { group in
        for index in 0..<count {
            group.addTask { (index, try await operation(index)) }
        }
        var results: [(Int, Value)] = []
        for try await result in group {
            results.append(result)
        }
        return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
