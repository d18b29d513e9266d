/// The answers stubbed for one request type, used in order; the last one repeats for ever, so a
/// stub never runs dry and an unexpected extra send still gets a deliberate answer.
struct FakeStubQueue {
    // Each element is a `FakeResponse<R>` for the request type the queue is stored under; the
    // dictionary of queues cannot be generic over every `R` at once.
    private var answers: [any Sendable]

    /// - Precondition: `answers` is not empty.
    init(_ answers: [any Sendable]) {
        self.answers = answers
    }

    mutating func next() -> any Sendable {
        answers.count > 1 ? answers.removeFirst() : answers[0]
    }
}
