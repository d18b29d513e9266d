import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Network.responses(for:): a send as a single-value AsyncSequence", .timeLimit(.minutes(1)))
struct NetworkResponsesTests {
    private struct Greeting: Codable, Sendable, Equatable {
        let text: String
    }

    private struct GreetingRequest: Request {
        typealias Response = Greeting

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(method: .get, url: baseURL.appendingPathComponent("greeting"))
        }
    }

    private static func makeNetwork() -> FakeNetwork {
        FakeNetwork(baseURL: URL(string: "https://api.example.com")!, runsActions: true)
    }

    @Test("yields the send's one value, then ends")
    func yieldsTheValueThenEnds() async throws {
        let network = Self.makeNetwork()
        network.stub(GreetingRequest.self, with: Greeting(text: "hello"))

        var values: [Greeting] = []
        for try await greeting in network.responses(for: GreetingRequest()) {
            values.append(greeting)
        }

        #expect(values == [Greeting(text: "hello")])
        #expect(network.sendCount(of: GreetingRequest.self) == 1)
    }

    @Test("throws the send's error, unchanged, after no value")
    func throwsTheSendError() async throws {
        let network = Self.makeNetwork()
        network.stub(GreetingRequest.self, throwing: NetworkError.transport(URLError(.notConnectedToInternet)))

        let values = Counter()
        let error = await #expect(throws: NetworkError.self) {
            for try await _ in network.responses(for: GreetingRequest(), priority: .high) {
                values.increment()
            }
        }
        guard case .transport(let urlError)? = error else {
            Issue.record("expected the stubbed transport error, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .notConnectedToInternet)
        #expect(values.count == 0)
    }

    @Test("one send, one value, then the end of the sequence")
    func sendsOnce() async throws {
        let network = Self.makeNetwork()
        network.stub(GreetingRequest.self, with: Greeting(text: "hello"))

        let responses = network.responses(for: GreetingRequest())
        var iterator = responses.makeAsyncIterator()
        #expect(try await iterator.next() == Greeting(text: "hello"))
        #expect(try await iterator.next() == nil)
        #expect(network.sendCount(of: GreetingRequest.self) == 1)
    }

    /// A fake whose sends wait in their will-begin stage until cancelled (nothing else ends them),
    /// counting the sends that started and those that were cancelled.
    private static func makeHeldNetwork() -> (network: FakeNetwork, started: Counter, cancelled: Counter) {
        let network = makeNetwork()
        network.stub(GreetingRequest.self, with: Greeting(text: "too late"))
        let started = Counter()
        let cancelled = Counter()
        network.add(
            action: WillBegin { request in
                started.increment()
                do {
                    try await Task.sleep(for: .seconds(600))
                } catch {
                    cancelled.increment()
                    throw error
                }
                return request
            })
        return (network, started, cancelled)
    }

    @Test("when the consumer stops waiting, its send is cancelled")
    func consumerStoppingCancelsTheSend() async throws {
        let (network, started, cancelled) = Self.makeHeldNetwork()

        let consumer = Task {
            var values: [Greeting] = []
            for try await greeting in network.responses(for: GreetingRequest()) {
                values.append(greeting)
            }
            return values
        }
        try await waitUntil { started.count == 1 }
        #expect(cancelled.count == 0)

        consumer.cancel()

        try await waitUntil { cancelled.count == 1 }
        // A cancelled consumer's stream ends; it never sees a value.
        let values = try? await consumer.value
        #expect(values?.isEmpty ?? true)
    }

    @Test("a sequence dropped without being iterated cancels its send")
    func droppedSequenceCancelsTheSend() async throws {
        let (network, started, cancelled) = Self.makeHeldNetwork()
        do {
            let responses = network.responses(for: GreetingRequest())
            try await waitUntil { started.count == 1 }
            _ = responses
        }
        try await waitUntil { cancelled.count == 1 }
    }
}
