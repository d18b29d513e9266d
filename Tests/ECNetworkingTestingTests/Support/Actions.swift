import ECNetworking
import Foundation

/// A will-begin action made from a closure.
struct WillBegin: RequestWillBeginAction {
    let body: @Sendable (NetworkRequest) async throws -> NetworkRequest

    init(_ body: @escaping @Sendable (NetworkRequest) async throws -> NetworkRequest) {
        self.body = body
    }

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        try await body(request)
    }
}

/// A completed action made from a closure.
struct Completed: ResponseCompletedAction {
    let body: @Sendable (NetworkRequest, NetworkResponse) async throws -> ResponseDecision

    init(_ body: @escaping @Sendable (NetworkRequest, NetworkResponse) async throws -> ResponseDecision) {
        self.body = body
    }

    func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        try await body(request, response)
    }
}

/// Adds a bearer token, the way an authentication action does.
struct AddToken: RequestWillBeginAction {
    let token: String

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        return request
    }
}

/// Asks for a retry whenever the response has `status`.
struct RetryOnStatus: ResponseCompletedAction {
    let status: Int

    func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        response.statusCode == status ? .retry : .proceed(response)
    }
}

/// Joins every stage and writes `name.stage` to the log.
struct StageRecorder: RequestWillBeginAction, RequestBeganAction, ResponseBeganAction, ResponseCompletedAction {
    let name: String
    let log: Log<String>

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        log.append("\(name).willBegin")
        return request
    }

    func requestBegan(_ request: NetworkRequest) {
        log.append("\(name).began")
    }

    func responseBegan(request: NetworkRequest, response: NetworkResponse) {
        log.append("\(name).responseBegan")
    }

    func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        log.append("\(name).completed")
        return .proceed(response)
    }
}
