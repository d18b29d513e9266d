import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate behind ``URLSessionTransport``: it hands each task's head and body to
/// the task's ``URLSessionExchange``, and declines every redirect, so that the 3xx reaches the
/// library's ``RedirectFollower`` like any transport's.
///
/// It is the session's delegate rather than a per-task delegate because on Linux only the
/// session's delegate is asked about redirects.
///
/// A task has an entry in `exchanges` from before it is resumed until it ends; an exchange that
/// ends early (cancellation, the size limit, a reader that let go) removes its entry before it
/// cancels the task, so a callback that finds no entry belongs to a task that has already ended
/// and is ignored.
///
/// On Linux the delegate methods run on FoundationNetworking's own queue, inside libcurl's
/// callbacks (see ``InlineOperationQueue``), which is what lets the size limit bound memory. A
/// delegate method must therefore never block, never call a caller's code, and never call a
/// session or task method that waits for that queue (`cancel()`, `resume()`, `suspend()`, creating
/// a task): those go to `controlQueue`. Resuming a continuation only schedules its task, so it is
/// allowed.
final class TransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `@unchecked` because `NSObject` is not `Sendable`, so the compiler cannot check this class.
    // It is safe: every stored property is a constant of a `Sendable` type, and the only mutable
    // state, the exchange table, is read and written only inside its lock (`InlineLockedState`).
    private let exchanges = InlineLockedState([Int: URLSessionExchange]())
    /// Where task methods run, in the order they were decided: a suspension must never overtake
    /// the resumption decided after it.
    private let controlQueue = DispatchQueue(label: "ECNetworking.URLSessionTransport.control")

    /// The number of tasks that have not ended yet.
    var activeTaskCount: Int {
        exchanges.withLock { $0.count }
    }

    /// The body bytes received and not yet read, over every task.
    var bufferedByteCount: Int {
        exchanges.withLock { Array($0.values) }.reduce(0) { $0 + $1.bufferedBytes }
    }

    /// Starts tracking `exchange`, whose task is `task`; must happen before the task is resumed,
    /// so no callback can miss its entry.
    func register(_ exchange: URLSessionExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    /// Stops tracking `task`, whose exchange has ended.
    func forget(_ task: URLSessionTask) {
        exchanges.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// Runs `work` (a task method) on the control queue, off the session's own queue.
    func control(_ work: @escaping @Sendable () -> Void) {
        controlQueue.async(execute: work)
    }

    private func exchange(for task: URLSessionTask) -> URLSessionExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // FoundationNetworking hands over an interim answer (`100 Continue`, `103 Early Hints`) as a
        // response of its own, then the final one: taken as the head, the interim status would
        // have met the final body. `101 Switching Protocols` ends the exchange, so it is final.
        if let exchange = exchange(for: dataTask), let response = response as? HTTPURLResponse,
            !(100...199).contains(response.statusCode) || response.statusCode == 101
        {
            if response.hasMalformedContentLength {
                // libcurl would end the body where the field's digits say; the exchange ends now
                // and the task is cancelled, as over the size limit.
                exchange.stop(with: NetworkError.transport(URLError(.badServerResponse)))
            } else {
                exchange.receive(response)
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(for: dataTask) else { return }
        switch exchange.receive(data) {
        case .none:
            break
        case .overLimit, .failed:
            // Content-Length is not trusted (on Linux it keeps the compressed size of a decoded
            // body), so this is the only place the limit is enforced; stopping here frees the
            // connection instead of downloading the rest. Until the cancellation takes effect, the
            // chunks still arriving find no entry and are dropped at once.
            forget(dataTask)
            control { dataTask.cancel() }
        }
    }

    // MARK: - URLSessionTaskDelegate

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let exchange = exchange(for: task), let progress = exchange.uploadProgress else { return }
        // FoundationNetworking says 0 (Apple's URLSession -1) for a body sent from a stream, as a
        // file is, though the library knows its length.
        let expected = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : exchange.uploadLength
        progress(TransferProgress(direction: .upload, completedByteCount: totalBytesSent, expectedByteCount: expected))
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // A task cancelled, and its entry removed, before this callback ran is left alone:
        // calling the handler after the cancellation reached FoundationNetworking makes it stop
        // the process ("not waiting for it"), and a cancelled transfer does not wait for it.
        guard exchange(for: task) != nil else { return }
        // Declined: the session finishes the 3xx as the response, and the library decides.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        exchange.complete(
            response: task.response,
            error: error.map { error in
                #if canImport(FoundationNetworking)
                    // A file body the library stopped (it changed size, could not be read, or was
                    // not to be sent twice) aborted the transfer, which FoundationNetworking
                    // reports only as an unknown error.
                    let error = exchange.ownedBody?.failure ?? error
                #endif
                let mapped = Self.mapped(error, afterHead: task.response != nil)
                // No head came: a lost connection may have carried the request to the server, and
                // `URLSession` does not say how much of it went out.
                guard task.response == nil, let mapped = mapped as? NetworkError,
                    let method = task.originalRequest?.httpMethod
                else { return mapped }
                return NetworkError.markingMayHaveBeenSent(mapped, method: HTTPMethod(rawValue: method))
            })
    }

    /// The error a transport reports for `error` (see ``HTTPTransport``). FoundationNetworking
    /// reports some failures only as libcurl's message with code -1 (`.unknown`): a connection
    /// closed before the body's `Content-Length` ("transfer closed with n bytes remaining") is a
    /// lost connection; a failed TLS handshake ("SSL certificate problem: unable to get local
    /// issuer certificate", "SSL: no alternative certificate subject name matches target host
    /// name") is `.secureConnectionFailed`, as the AsyncHTTPClient transport and Apple's
    /// `URLSession` report it. A connection the server closed without a byte of answer is
    /// `.badServerResponse` there ("Empty reply from server"), and one closed or reset while the
    /// request or its body was still going out, or before the answer's head, is `.unknown` ("Send
    /// failure: Broken pipe", "Recv failure: Connection reset by peer"); each is a lost connection,
    /// as Apple's `URLSession` and the AsyncHTTPClient transport report it, so that a request the
    /// server may have received is told apart (see ``NetworkError/requestMayHaveBeenSent``).
    static func mapped(_ error: any Error, afterHead: Bool) -> any Error {
        if let urlError = error as? URLError, !afterHead, urlError.code == .badServerResponse,
            urlError.localizedDescription == "Empty reply from server"
        {
            return NetworkError.transport(urlError.recoded(.networkConnectionLost))
        }
        // The library hands the session http and https URLs only (a redirect's too), so libcurl's
        // "unsupported protocol" before a head is its word for an answer that is not HTTP at all
        // ("Received HTTP/0.9 when not allowed"): the server's answer, not the URL, is at fault,
        // as async-http-client says of the same bytes.
        if let urlError = error as? URLError, !afterHead, urlError.code == .unsupportedURL {
            return NetworkError.transport(urlError.recoded(.badServerResponse))
        }
        if let urlError = error as? URLError, urlError.code == .unknown {
            if afterHead {
                return NetworkError.transport(urlError.recoded(.networkConnectionLost))
            }
            if isTLSFailure(urlError) {
                return NetworkError.transport(urlError.recoded(.secureConnectionFailed))
            }
            if isConnectionFailure(urlError) {
                return NetworkError.transport(urlError.recoded(.networkConnectionLost))
            }
        }
        return NetworkError.normalize(error)
    }

    /// Whether libcurl's message in `error` says the connection failed under a transfer: its
    /// `CURLE_SEND_ERROR` and `CURLE_RECV_ERROR`, which start so.
    private static func isConnectionFailure(_ error: URLError) -> Bool {
        let message = error.localizedDescription
        return message.hasPrefix("Send failure") || message.hasPrefix("Recv failure")
    }

    /// Whether libcurl's message in `error` is one of its TLS failures, which all start so.
    private static func isTLSFailure(_ error: URLError) -> Bool {
        let message = error.localizedDescription
        return message.hasPrefix("SSL") || message.hasPrefix("OpenSSL") || message.hasPrefix("TLS")
    }

    #if canImport(FoundationNetworking)
        /// libcurl sends a request again on a fresh connection when the connection it reused
        /// closed before a byte of the answer, and asks for its body from the start: a file body
        /// gets a new stream of the file, or one that refuses to send it twice (see
        /// ``OwnedRequestBody/resentBody(method:)``). Asked on the session's queue, which waits
        /// for the answer, so it is given at once. Any other body is left as it is (`nil`):
        /// FoundationNetworking stops the process when a body it did not read from a stream is
        /// given one.
        func urlSession(
            _ session: URLSession, task: URLSessionTask,
            needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
        ) {
            let method = HTTPMethod(rawValue: task.originalRequest?.httpMethod ?? "GET")
            completionHandler(exchange(for: task)?.ownedBody?.resentBody(method: method))
        }

        /// FoundationNetworking asks this only about a complete 401 response whose challenge it
        /// knows (`WWW-Authenticate: Basic realm="api"`). Its default handling never ends the
        /// task when no credential is stored, and with one it suspends the task, which waits for
        /// the queue this runs on. The library authenticates with actions instead, so the 401 is
        /// delivered as it is, like any other 401; cancelling the challenge, from another queue,
        /// then lets the session drop the task, whose callback finds no entry.
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            if let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
                exchange.complete(response: challenge.failureResponse ?? task.response, error: nil)
            }
            control { completionHandler(.cancelAuthenticationChallenge, nil) }
        }
    #endif
}
