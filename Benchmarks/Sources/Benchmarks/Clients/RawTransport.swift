import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the hand-written client sends through. Generic rather than an existential, so that the
/// baseline pays nothing for abstraction that hand-written code would not have.
protocol RawTransport: Sendable {
    /// Starts one request; `completion` is called once.
    func start(_ request: URLRequest, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void)
}

extension URLSession: RawTransport {
    /// `dataTask(with:completionHandler:)`, the call that works on every FoundationNetworking.
    func start(_ request: URLRequest, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        dataTask(with: request, completionHandler: completion).resume()
    }
}

extension InMemorySession: RawTransport {
    /// The same `dataTask(for:completion:)` the library calls, so both sides pay for one task.
    func start(_ request: URLRequest, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        dataTask(for: request, completion: completion).resume()
    }
}
