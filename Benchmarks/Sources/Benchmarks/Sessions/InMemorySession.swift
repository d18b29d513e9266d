import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``Session`` without sockets: every task answers inside `resume()` with the same prebuilt
/// response and body, so what is measured is the code around the transport, not the transport.
final class InMemorySession: Session {
    /// The response every task answers with, built once.
    let response: HTTPURLResponse
    /// The body every task answers with.
    let body: Data

    /// Creates a session answering `200` with `body` as JSON for `url`.
    init(url: URL, body: Data) {
        self.body = body
        self.response = HTTPURLResponse(
            url: url,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json", "Content-Length": String(body.count)]
        )!
    }

    /// A task that answers as soon as it is resumed.
    func dataTask(
        for request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any SessionTask {
        InMemoryTask(response: response, body: body, completion: completion)
    }
}

/// The task of an ``InMemorySession``: answers synchronously when resumed.
final class InMemoryTask: SessionTask {
    private let response: HTTPURLResponse
    private let body: Data
    private let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    init(
        response: HTTPURLResponse,
        body: Data,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) {
        self.response = response
        self.body = body
        self.completion = completion
    }

    /// Answers at once, on the calling thread.
    func resume() {
        completion(body, response, nil)
    }

    /// Nothing to stop: the task has already answered by the time anyone could cancel it.
    func cancel() {}
}
