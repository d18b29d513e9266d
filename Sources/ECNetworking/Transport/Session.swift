import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport with one `URLRequest` in and the buffered body out, which a ``HTTPNetwork``
/// can send through: a `URLSession`, or a test double such as `MockSession` from
/// `ECNetworkingTesting`. ``HTTPTransport`` is the streaming seam; this one stays for the code
/// and tests built on it. A session follows redirects by its own rules. It says nothing of the
/// bytes it sends, so a send with an upload progress handler hears of its body once, whole, when
/// the session answers.
public protocol Session: Sendable {
    /// Creates a task, not yet resumed, that sends `request` and calls `completion` once with the
    /// body and response or with an error. `completion` may run on any thread. A response, bytes
    /// and an error together mean a body that broke off after those bytes: a streamed send reads
    /// them, then fails with the error (a test double replays such a body; a `URLSession` never
    /// completes that way).
    func dataTask(
        for request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any SessionTask
}

/// A transport task created by a ``Session``.
public protocol SessionTask: Sendable {
    /// Starts the task.
    func resume()
    /// Cancels the task; its completion then reports `URLError.cancelled`.
    func cancel()
}

// Public on purpose: a `URLSession` of the app's own (its configuration, its delegate) goes in as
// `HTTPNetwork(configuration:session:)`, as ELWebService's `service.session` took one.
extension URLSession: Session {
    /// Creates a data task with a completion handler, which works on every platform
    /// (`data(for:)` is missing on older FoundationNetworking). On Linux the task is made, started
    /// and cancelled on a dispatch queue, never on the calling thread, because FoundationNetworking
    /// makes those calls wait for a queue a transfer can hold for seconds.
    ///
    /// On Linux a file body a network hands over goes out with its `Content-Length`, not chunked
    /// (as FoundationNetworking sends any other stream), and a file that changes size while it is
    /// sent fails the task with ``NetworkError/invalidRequest(reason:)``, nothing past its length
    /// on the wire. A file or data body goes out from a stream of the library's, so that when
    /// libcurl sends the request again on a fresh connection (the kept-alive one it reused closed
    /// before a byte of the answer), the task fails at once as a lost connection: the session's
    /// delegate is not the library's, so the body cannot be had again, and FoundationNetworking
    /// would send the head again without it and wait for the timeout.
    public func dataTask(
        for request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any SessionTask {
        #if canImport(FoundationNetworking)
            guard
                let body = OwnedRequestBody.owner(of: request.httpBodyStream) ?? OwnedRequestBody(bytesOf: request)
            else {
                return URLSessionTaskStarter(session: self, request: request, completion: completion)
            }
            // The body's own length and a blank `Transfer-Encoding`, as `URLSessionTransport` sends
            // it (see `OwnedRequestBody`); a body the library stopped says why.
            return URLSessionTaskStarter(session: self, request: body.attached(to: request)) { data, response, error in
                if let failure = body.failure {
                    completion(nil, nil, failure)
                } else {
                    completion(data, response, error)
                }
            }
        #else
            dataTask(with: request, completionHandler: completion)
        #endif
    }
}

extension URLSessionDataTask: SessionTask {}
