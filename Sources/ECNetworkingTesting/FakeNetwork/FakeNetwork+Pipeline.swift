import ECNetworking
import Foundation

extension FakeNetwork {
    /// What a stub produced for one attempt: a value that needs no decoding, or a response that does.
    enum StubbedAnswer<Value> {
        case value(Value)
        case response(NetworkResponse)
    }

    /// Runs `built` as `HTTPNetwork` runs a send, through the same `StageRunner`: noted for the
    /// metrics hook and the failure actions, registered as a send of `requestType` (refused with
    /// `NetworkError.invalidated` once the fake is invalidated, which they hear of, as on the real
    /// network), then recorded with `record`, then run with the stub as the transport step: default
    /// headers, will-begin actions (under the action time limit), began actions, the stub,
    /// response-began and completed actions, validation of the request as sent, the retries the
    /// completed actions and the retry policy ask for, the metrics hook, and on an error the
    /// failure actions. Without ``runsActions`` no action runs; everything else does.
    func perform<Value>(
        _ built: NetworkRequest,
        of requestType: Any.Type?,
        registration: SendRegistration? = nil,
        record: (inout FakeNetworkState) -> Int,
        answer: @escaping (NetworkRequest) async throws -> StubbedAnswer<Value>,
        decode: (NetworkResponse) throws -> Value
    ) async throws -> Value {
        let latestValue = ValueBox<Value>()
        return try await runner.send(
            built, registration: registration ?? .registeredIn(activeSends), as: requestType.map(ObjectIdentifier.init),
            priority: .normal,
            through: {
                // Recorded once the send is registered: an invalidated fake records nothing.
                StubTransport(
                    network: self, recordID: state.withLock { record(&$0) }, answer: answer, latestValue: latestValue)
            }
        ) { response, context in
            if let value = latestValue.value { return value }
            // A streamed stub's body is still to come: the send ends with it, as on the real
            // network, so a body that breaks is a failed send for every observer.
            context.reportsAtBodyEnd(of: response)
            return try decode(response)
        }
    }

    /// Takes the next answer for a typed request, going out as `sent`, waits out its delay, and
    /// produces it.
    func answer<R: Request>(_ request: R, sent: NetworkRequest) async throws -> StubbedAnswer<R.Response> {
        let next = state.withLock { $0.stubs[ObjectIdentifier(R.self)]?.next() }
        if next == nil, let wrapper = request as? any WrappingRequest {
            return .response(try await answer(wrapping: wrapper.wrappedRequest, as: request, sent: sent))
        }
        guard let stub = next as? FakeResponse<R> else {
            throw FakeNetworkError.noStub(requestType: String(describing: R.self))
        }
        try await wait(stub.delay)
        switch stub.outcome {
        case .value(let value): return .value(value)
        case .computed(let answer): return .value(try answer(request))
        case .error(let error): throw error
        case .networkResponse(let response): return .response(response)
        // A send reads the body whole, as a transport gathers it.
        case .streamed(let script): return .response(try await script(sent).collected(for: sent))
        }
    }

    /// The answer to a request the library made around the caller's `base` to stream it or
    /// subscribe to its events: `base`'s stub when it gives a response or an error (a value stub
    /// has no bytes to stream), otherwise the raw stub's answer to `wrapper` as it goes out.
    private func answer<Base: Request>(wrapping base: Base, as wrapper: some Request, sent: NetworkRequest)
        async throws -> NetworkResponse
    {
        let next = state.withLock { $0.stubs[ObjectIdentifier(Base.self)]?.next() }
        guard let stub = next as? FakeResponse<Base> else {
            return try await answer(try wrapper.buildRequest(with: configuration.baseURL))
        }
        try await wait(stub.delay)
        switch stub.outcome {
        case .networkResponse(let response): return response
        // The stream the library made around `base` reads the body as it comes.
        case .streamed(let script): return try script(sent).response(to: sent)
        case .error(let error): throw error
        case .value, .computed:
            throw FakeNetworkError.noStub(
                requestType: "\(Base.self) as a stream (stub it with a response: stub(\(Base.self).self, response:))")
        }
    }

    /// Waits out the raw stub's delay and produces its response for `request`.
    func answer(_ request: NetworkRequest) async throws -> NetworkResponse {
        guard let stub = state.withLock({ $0.networkRequestStub }) else {
            let url = (try? request.urlWithQuery()) ?? request.url
            // Named as every description names a request: a token in its query stays out of logs.
            throw FakeNetworkError.noNetworkRequestStub(
                method: request.method.rawValue, url: Redaction.forDescriptions.url(url))
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

/// The fake's transport step: records the request as the will-begin actions left it, counts the
/// attempt and tells the began actions, then asks the stub.
private struct StubTransport<Value>: AttemptTransport {
    let network: FakeNetwork
    let recordID: Int
    let answer: (NetworkRequest) async throws -> FakeNetwork.StubbedAnswer<Value>
    /// The value a value stub gave the latest attempt, which needs no decoding; `nil` after a raw
    /// response. A box the send made, since the runner sees only the response.
    let latestValue: ValueBox<Value>

    func transmit(
        _ request: NetworkRequest,
        priority: RequestPriority,
        stages: ActionStages,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        network.state.withLock { $0.update(record: recordID, with: request) }
        context.request = request
        _ = context.begin(request, stages: stages, queuedSince: nil)
        latestValue.value = nil
        switch try await answer(request) {
        case .value(let answered):
            latestValue.value = answered
            // There is no wire response; the response stages still need one to look at.
            return NetworkResponse(statusCode: 200, url: try? request.urlWithQuery(), request: request)
        case .response(var response):
            if response.request == nil { response.request = request }
            if response.url == nil { response.url = try? request.urlWithQuery() }
            return response
        }
    }
}

/// A value one send's attempts hand on to the send; it never leaves the send's task.
private final class ValueBox<Value> {
    var value: Value?
}
