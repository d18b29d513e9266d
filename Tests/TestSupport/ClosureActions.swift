import ECNetworking

/// A will-begin action made from a closure.
public struct WillBegin: RequestWillBeginAction {
    let body: @Sendable (NetworkRequest) async throws -> NetworkRequest

    /// Creates an action that runs `body` at the will-begin stage.
    public init(_ body: @escaping @Sendable (NetworkRequest) async throws -> NetworkRequest) {
        self.body = body
    }

    /// Runs the closure.
    public func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        try await body(request)
    }
}

/// A completed action made from a closure.
public struct Completed: ResponseCompletedAction {
    let body: @Sendable (NetworkRequest, NetworkResponse) async throws -> ResponseDecision

    /// Creates an action that runs `body` at the completed stage.
    public init(_ body: @escaping @Sendable (NetworkRequest, NetworkResponse) async throws -> ResponseDecision) {
        self.body = body
    }

    /// Runs the closure.
    public func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        try await body(request, response)
    }
}
