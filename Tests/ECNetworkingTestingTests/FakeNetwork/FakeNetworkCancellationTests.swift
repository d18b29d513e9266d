import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("FakeNetwork simulates latency that cancellation cuts short")
struct FakeNetworkCancellationTests {
    private let clock = ContinuousClock()

    @Test("a stub's delay holds the answer back")
    func delayHoldsAnswer() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: .milliseconds(200))
        let start = clock.now
        _ = try await fake.send(GetBookRequest(id: 1))
        #expect(clock.now - start >= .milliseconds(200))
    }

    @Test("delayed(by:) gives one answer of a sequence its own latency")
    func delayedBy() async throws {
        let fake = FakeNetwork()
        let book = Book(id: 1, title: "Dune")
        fake.stub(GetBookRequest.self, with: [.value(book), .value(book).delayed(by: .milliseconds(200))])
        var start = clock.now
        _ = try await fake.send(GetBookRequest(id: 1))
        let immediate = clock.now - start
        start = clock.now
        _ = try await fake.send(GetBookRequest(id: 1))
        let delayed = clock.now - start
        #expect(delayed >= .milliseconds(200))
        #expect(immediate < delayed)
    }

    @Test("cancelling the task during a long delay ends the send promptly with cancelled")
    func cancelTaskDuringDelay() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: longDelay)
        let start = clock.now
        let task = Task { try await fake.send(GetBookRequest(id: 1)) }
        try await waitUntil { fake.totalSendCount == 1 }
        task.cancel()
        let error = await #expect(throws: NetworkError.self) { try await task.value }
        #expect(error?.isCancellation == true)
        #expect(clock.now - start < promptBound, "the long delay must not be waited out")
    }

    @Test("a task cancelled before it sends ends with cancelled, even without a delay")
    func cancelledBeforeSend() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fake.send(GetBookRequest(id: 1))
        }
        let error = await #expect(throws: NetworkError.self) { try await task.value }
        #expect(error?.isCancellation == true)
    }

    @Test("the completion handler is called exactly once with the value")
    func completionCalledOnce() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"))
        let results = Log<Book?>()
        fake.send(GetBookRequest(id: 1)) { result in results.append(try? result.get()) }
        try await waitUntil { !results.all.isEmpty }
        try await Task.sleep(for: .milliseconds(100))
        #expect(results.all == [Book(id: 1, title: "Dune")])
    }

    @Test("cancelling the Cancellable calls the completion handler once, promptly, with cancelled")
    func cancellableCancels() async throws {
        let fake = FakeNetwork()
        fake.stub(GetBookRequest.self, with: Book(id: 1, title: "Dune"), delay: longDelay)
        let errors = Log<String>()
        let start = clock.now
        let cancellable = fake.send(GetBookRequest(id: 1), priority: .high) { result in
            switch result {
            case .success: errors.append("success")
            case .failure(let error):
                errors.append((error as? NetworkError)?.isCancellation == true ? "cancelled" : "\(error)")
            }
        }
        try await waitUntil { fake.totalSendCount == 1 }
        cancellable.cancel()
        try await waitUntil { !errors.all.isEmpty }
        #expect(clock.now - start < promptBound, "the long delay must not be waited out")
        cancellable.cancel()
        try await Task.sleep(for: .milliseconds(100))
        #expect(errors.all == ["cancelled"])
    }
}
