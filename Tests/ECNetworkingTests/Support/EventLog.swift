import ECNetworking
import Foundation

/// A thread-safe list of what happened, in order, for tests that check stage order.
final class EventLog: @unchecked Sendable {
    // Safe because `events` is only touched while `lock` is held.
    private let lock = NSLock()
    private var events: [String] = []

    func append(_ event: String) {
        lock.withLock { events.append(event) }
    }

    var all: [String] {
        lock.withLock { events }
    }
}

/// An action that joins every stage and writes `name.stage` to the log.
struct RecordingAction: RequestWillBeginAction, RequestBeganAction, ResponseBeganAction, ResponseCompletedAction {
    let name: String
    let log: EventLog

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

/// A will-begin action that runs a closure.
struct WillBegin: RequestWillBeginAction {
    let body: @Sendable (NetworkRequest) async throws -> NetworkRequest

    init(_ body: @escaping @Sendable (NetworkRequest) async throws -> NetworkRequest) {
        self.body = body
    }

    func requestWillBegin(_ request: NetworkRequest) async throws -> NetworkRequest {
        try await body(request)
    }
}

/// A completed action that runs a closure.
struct Completed: ResponseCompletedAction {
    let body: @Sendable (NetworkRequest, NetworkResponse) async throws -> ResponseDecision

    init(_ body: @escaping @Sendable (NetworkRequest, NetworkResponse) async throws -> ResponseDecision) {
        self.body = body
    }

    func responseCompleted(request: NetworkRequest, response: NetworkResponse) async throws -> ResponseDecision {
        try await body(request, response)
    }
}

/// A request for `GET /users` that decodes `[User]`.
struct ListUsers: Request {
    typealias Response = [User]

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .get, url: baseURL.appendingPathComponent("users"))
    }
}

/// A request for `DELETE /users/{id}` with no response body.
struct DeleteUser: Request {
    typealias Response = Void
    let id: Int

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .delete, url: baseURL.appendingPathComponent("users/\(id)"))
    }
}

/// A test error with an identity, to check that errors pass through unchanged.
struct MarkerError: Error, Equatable {
    let id: Int
}

/// A counter several tasks can bump.
final class Counter: @unchecked Sendable {
    // Safe because `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value = 0

    @discardableResult
    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }

    var count: Int {
        lock.withLock { value }
    }
}
