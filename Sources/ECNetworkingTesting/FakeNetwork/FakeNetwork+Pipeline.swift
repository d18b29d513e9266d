import ECNetworking
import Foundation

extension FakeNetwork {
    /// What a stub produced for one attempt: a value that needs no decoding, or a response that does.
    enum StubbedAnswer<Value> {
        case value(Value)
        case response(NetworkResponse)
    }

    /// Runs attempts until one ends, the way ``URLSessionNetwork`` does but with the stub in place
    /// of the transport: will-begin actions, began actions, the stub, response-began actions,
    /// completed actions (which may ask for a retry), validation, decoding, and on an error the
    /// failure actions. Without ``runsActions`` only the stub, validation and decoding are left.
    func perform<Value>(
        _ built: NetworkRequest,
        recordID: Int,
        answer: (NetworkRequest) async throws -> StubbedAnswer<Value>,
        decode: (NetworkResponse) throws -> Value
    ) async throws -> Value {
        var lastSent = built
        do {
            var request = built
            request.customProperties[NetworkBaseURL.self] = baseURL
            var attempts = 0
            attemptLoop: while true {
                try Task.checkCancellation()
                attempts += 1
                let actions = runsActions ? state.withLock { $0.actions } : []
                var prepared = request
                for case let action as any RequestWillBeginAction in actions {
                    prepared = try await action.requestWillBegin(prepared)
                    try Task.checkCancellation()
                }
                if !actions.isEmpty {
                    state.withLock { $0.update(record: recordID, with: prepared) }
                }
                lastSent = prepared
                for case let action as any RequestBeganAction in actions {
                    action.requestBegan(prepared)
                }

                let value: Value?
                var response: NetworkResponse
                switch try await answer(prepared) {
                case .value(let answered):
                    value = answered
                    // There is no wire response; the response stages still need one to look at.
                    response = NetworkResponse(statusCode: 200, url: try? prepared.urlWithQuery(), request: prepared)
                case .response(let answered):
                    value = nil
                    response = answered
                    if response.request == nil { response.request = prepared }
                    if response.url == nil { response.url = try? prepared.urlWithQuery() }
                }

                for case let action as any ResponseBeganAction in actions {
                    action.responseBegan(request: prepared, response: response)
                }
                for case let action as any ResponseCompletedAction in actions {
                    switch try await action.responseCompleted(request: prepared, response: response) {
                    case .proceed(let changed):
                        response = changed
                    case .retry(let delay):
                        guard attempts <= maximumRetries else {
                            throw NetworkError.retryLimitReached(attempts: attempts, response: response)
                        }
                        if delay > .zero { try await SendCancellation.sleep(for: delay) }
                        // Like the real network: the next attempt starts from the request as built,
                        // keeping what the actions noted in its custom properties.
                        request.customProperties = prepared.customProperties
                        continue attemptLoop
                    }
                }

                let acceptable = request.acceptableStatusCodes ?? Set(200..<300)
                guard acceptable.contains(response.statusCode) else {
                    throw NetworkError.unacceptableStatusCode(response)
                }
                if let value { return value }
                return try decode(response)
            }
        } catch {
            // Like the real network: one failure call per failed send, with the request as last sent.
            let error: any Error = error is CancellationError ? NetworkError.cancelled : error
            for case let action as any RequestFailedAction in runsActions ? state.withLock({ $0.actions }) : [] {
                action.requestFailed(lastSent, error: error)
            }
            throw error
        }
    }

    /// Takes the next answer for a typed request, waits out its delay, and produces it.
    func answer<R: Request>(_ request: R) async throws -> StubbedAnswer<R.Response> {
        let next = state.withLock { $0.stubs[ObjectIdentifier(R.self)]?.next() }
        guard let stub = next as? FakeResponse<R> else {
            throw FakeNetworkError.noStub(requestType: String(describing: R.self))
        }
        try await wait(stub.delay)
        switch stub.outcome {
        case .value(let value): return .value(value)
        case .computed(let answer): return .value(try answer(request))
        case .error(let error): throw error
        case .networkResponse(let response): return .response(response)
        }
    }

    /// Waits out the raw stub's delay and produces its response for `request`.
    func answer(_ request: NetworkRequest) async throws -> NetworkResponse {
        guard let stub = state.withLock({ $0.networkRequestStub }) else {
            let url = (try? request.urlWithQuery()) ?? request.url
            throw FakeNetworkError.noNetworkRequestStub(method: request.method.rawValue, url: url.absoluteString)
        }
        try await wait(stub.delay)
        return try stub.answer(request)
    }

    /// Sleeps for a stub's delay; cancellation (of the task, or of the send by `cancelAll`) ends
    /// the sleep at once.
    private func wait(_ delay: Duration) async throws {
        if delay > .zero {
            try await SendCancellation.sleep(for: delay)
        } else {
            try Task.checkCancellation()
        }
    }
}
