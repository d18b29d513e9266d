#if OpenAPI
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime

    /// A swift-openapi-generator client's transport that sends every operation through a
    /// ``Network``, so generated calls get what the network's own sends get: the will-begin,
    /// began, response-began and completed actions (authentication with its single-flight
    /// refresh, logging with redaction), the retry policy, the concurrency limit, redirects, and
    /// whichever transport the network was made with. Needs the `OpenAPI` trait.
    ///
    /// ```swift
    /// let client = Client(serverURL: serverURL, transport: NetworkClientTransport(network: network))
    /// ```
    ///
    /// Every status comes back as a response, as a generated client expects: a 404 or a 503
    /// (after the retry policy gave up) is the operation's documented or undocumented output, not
    /// an error. What fails the send (no connection, a timeout, cancellation, an action's error)
    /// reaches the client as the runtime's `ClientError` whose `underlyingError` is the
    /// ``NetworkError``; its request is shown redacted as the library's descriptions are (see
    /// ``SensitiveData``), and the operation's input is not shown, since it may hold secrets.
    ///
    /// A request body whose length is known and at most ``maximumBufferedRequestBodySize`` is read
    /// into memory first, so that a retry or a 307/308 redirect can send it again. A larger one, or
    /// one of unknown length, streams to the wire as it is produced (``RequestBody/stream(_:length:contentType:)``),
    /// never held whole; it cannot be sent twice, so a retry of it fails with
    /// ``NetworkError/bodyNotReplayable(response:lastError:)``.
    ///
    /// An answer without content (to `HEAD`, or `204`/`304`) comes back with no body, and one whose
    /// `Content-Length` is 0 with an empty one, each read to its end by the transport, so its send
    /// ends as a success although generated code may never read it. A body the generated client
    /// lets go unread (an undocumented response's) stops its transfer, and its send ends as
    /// ``NetworkError/cancelled`` in the logs, spans and metrics.
    ///
    /// A successful response's body streams to the generated client as it arrives (a streamed send,
    /// see ``ResponseStream``): an `HTTPBody` read once, within
    /// ``NetworkConfiguration/maximumResponseSize`` and ``NetworkConfiguration/streamIdleTimeout``,
    /// so an event stream or a large download never sits whole in memory. A failing status's body
    /// arrives as the network reads it for the error: its first
    /// ``NetworkConfiguration/maximumErrorBodySize`` bytes (64 KiB by default), the rest dropped
    /// with the connection.
    public struct NetworkClientTransport: ClientTransport {
        /// The network every operation is sent through.
        public let network: any Network
        /// The priority of every operation's send.
        public var priority: RequestPriority
        /// The largest request body, of known length, read into memory so that it can be sent
        /// again; a larger one, or one of unknown length, streams.
        public var maximumBufferedRequestBodySize: Int

        /// A transport sending through `network` at `priority`, reading request bodies of known
        /// length up to `maximumBufferedRequestBodySize` bytes (1 MiB unless given) into memory and
        /// streaming the others.
        public init(
            network: any Network,
            priority: RequestPriority = .normal,
            maximumBufferedRequestBodySize: Int = 1024 * 1024
        ) {
            self.network = network
            self.priority = priority
            self.maximumBufferedRequestBodySize = maximumBufferedRequestBodySize
        }

        /// Sends one operation's request through the network and returns its answer, whatever
        /// the status.
        public func send(
            _ request: HTTPRequest,
            body: HTTPBody?,
            baseURL: URL,
            operationID: String
        ) async throws -> (HTTPResponse, HTTPBody?) {
            do {
                var networkRequest = try NetworkRequest(request, baseURL: baseURL)
                if let body {
                    networkRequest.body = try await requestBody(body)
                }
                networkRequest.customProperties[OpenAPIOperationID.self] = operationID
                do {
                    // Streamed, so a large or endless body reaches the generated client as it arrives.
                    let stream = try await network.stream(networkRequest, priority: priority, progress: nil)
                    let hasContent = stream.response.hasContent(answering: networkRequest.method)
                    guard hasContent, stream.headers["Content-Length"] != "0" else {
                        // Read to its end here, where it ends at once: generated code may never read
                        // an empty body (never one of an answer without content), and a body let go
                        // unread stops its transfer, which would end a successful send as cancelled.
                        for try await _ in stream {}
                        return (HTTPResponse(stream.response), hasContent ? HTTPBody() : nil)
                    }
                    return (HTTPResponse(stream.response), HTTPBody.streaming(stream))
                } catch let error as NetworkError {
                    guard let answered = error.answeredResponse else { throw error }
                    return (HTTPResponse(answered), HTTPBody(answered.body))
                }
            } catch {
                throw ClientError.redacted(
                    wrapping: NetworkError.normalize(error), request: request, baseURL: baseURL,
                    operationID: operationID)
            }
        }

        /// The body's bytes, failing once more than `limit` have arrived.
        /// `body` as the network sends it: in memory when its length is known and small enough,
        /// streamed otherwise. No content type of its own: the operation's header names it.
        private func requestBody(_ body: HTTPBody) async throws -> RequestBody {
            if case .known(let length) = body.length, length <= maximumBufferedRequestBodySize {
                var data = Data()
                data.reserveCapacity(Int(length))
                for try await chunk in body { data.append(contentsOf: chunk) }
                return .data(data, contentType: nil)
            }
            let length: Int? =
                switch body.length {
                case .known(let length): Int(length)
                case .unknown: nil
                }
            return .stream(body.map { @Sendable chunk in Data(chunk) }, length: length, contentType: nil)
        }
    }

    extension HTTPBody {
        /// `stream` as a body the generated client reads once, as it arrives; its length is the
        /// `Content-Length` when the body is not compressed (the transports decompress it).
        fileprivate static func streaming(_ stream: ResponseStream) -> HTTPBody {
            let headers = stream.headers
            let isCompressed =
                headers["Content-Encoding"].map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
            let length: Int64? = isCompressed ? nil : headers["Content-Length"].flatMap { Int64($0) }
            let chunks = stream.map { @Sendable chunk in ArraySlice(chunk) }
            return HTTPBody(chunks, length: length.map { .known($0) } ?? .unknown, iterationBehavior: .single)
        }
    }

    extension NetworkResponse {
        /// Whether this answer to a request of `method` can carry content: not one to `HEAD`, nor
        /// a `204 No Content` or `304 Not Modified` (RFC 9110, 6.4.1).
        fileprivate func hasContent(answering method: HTTPMethod) -> Bool {
            method != .head && statusCode != 204 && statusCode != 304
        }
    }

    extension NetworkError {
        /// The server's answer, when the send failed only because of its status: the response
        /// itself, the last one after the retries ran out, or the one an action wanted retried.
        fileprivate var answeredResponse: NetworkResponse? {
            switch self {
            case .unacceptableStatusCode(let response), .retryLimitReached(_, let response):
                response
            case .retriesExhausted(_, let lastError):
                (lastError as? NetworkError)?.answeredResponse
            case .bodyNotReplayable(let response, let lastError):
                // A retry of a streamed body was refused: the attempt's answer stands.
                response ?? (lastError as? NetworkError)?.answeredResponse
            default:
                nil
            }
        }
    }
#endif
