import ECNetworking

/// An action at all four stages that reports each one as it happens, for the tour's printout and
/// for tests of the stage order.
///
/// ```swift
/// network.add(action: StageTracer { print($0) })
/// // [will-begin] GET /users
/// // [began] GET /users
/// // [response-began] 200 GET /users
/// // [completed] 200 GET /users
/// ```
///
/// It only observes: the request and response go on unchanged. Where it is added decides what it
/// sees: added before an authentication action, its will-begin line comes before any login that
/// request waits for, while its began line shows the request as sent.
public struct StageTracer: RequestWillBeginAction, RequestBeganAction, ResponseBeganAction, ResponseCompletedAction {
    private let observe: @Sendable (StageEvent) -> Void

    /// Creates a tracer that hands every event to `observe`, synchronously and on the request's
    /// path, so `observe` should be quick.
    public init(_ observe: @escaping @Sendable (StageEvent) -> Void) {
        self.observe = observe
    }

    /// Reports `will-begin` and passes the request on unchanged.
    public func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        observe(StageEvent(stage: .willBegin, request: request))
        return request
    }

    /// Reports `began`.
    public func requestBegan(_ request: NetworkRequest) {
        observe(StageEvent(stage: .began, request: request))
    }

    /// Reports `response-began`.
    public func responseBegan(request: NetworkRequest, response: NetworkResponse) {
        observe(StageEvent(stage: .responseBegan, request: request, response: response))
    }

    /// Reports `completed` and lets the response proceed unchanged.
    public func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        observe(StageEvent(stage: .completed, request: request, response: response))
        return .proceed(response)
    }
}
