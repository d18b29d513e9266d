import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("Completion handlers and their queue")
struct CompletionQueueTests {
    @Test("completion handlers run on the configured queue, once")
    func configuredQueue() async throws {
        let queue = DispatchQueue(label: "completions")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "completions")
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "A")]))
        let network = makeNetwork(session: session) { $0.completionQueue = queue }
        #expect(network.completionQueue === queue)

        let onQueue = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            network.send(ListUsers()) { result in
                continuation.resume(
                    returning: DispatchQueue.getSpecific(key: key) == "completions" && (try? result.get()) != nil)
            }
        }

        #expect(onQueue)
    }
}
