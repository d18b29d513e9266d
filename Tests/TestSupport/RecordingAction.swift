import ECNetworking

/// An action that joins every stage and writes `name.stage` to the log, for tests of stage order.
public struct RecordingAction: RequestWillBeginAction, RequestBeganAction, ResponseBeganAction,
    ResponseCompletedAction
{
    let name: String
    let log: EventLog

    /// Creates an action that writes to `log` under `name`.
    public init(name: String, log: EventLog) {
        self.name = name
        self.log = log
    }

    /// Writes `name.willBegin`.
    public func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        log.append("\(name).willBegin")
        return request
    }

    /// Writes `name.began`.
    public func requestBegan(_ request: NetworkRequest) {
        log.append("\(name).began")
    }

    /// Writes `name.responseBegan`.
    public func responseBegan(request: NetworkRequest, response: NetworkResponse) {
        log.append("\(name).responseBegan")
    }

    /// Writes `name.completed`.
    public func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        log.append("\(name).completed")
        return .proceed(response)
    }
}
