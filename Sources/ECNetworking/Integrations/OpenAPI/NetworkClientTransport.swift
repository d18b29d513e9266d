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
    /// Bodies are held in memory in both directions: ``Network/send(_:priority:)`` takes a
    /// ``RequestBody`` and returns the whole body, so a streamed request body is read to its end
    /// (at most ``maximumRequestBodySize`` bytes) before the send starts, which also lets a retry
    /// send it again, and a response body arrives whole, within
    /// ``NetworkConfiguration/maximumResponseSize``.
    public struct NetworkClientTransport: ClientTransport {
        /// The network every operation is sent through.
        public let network: any Network
        /// The priority of every operation's send.
        public var priority: RequestPriority
        /// The largest request body read into memory; a larger one fails the operation with
        /// ``NetworkError/invalidRequest(reason:)`` before anything is sent.
        public var maximumRequestBodySize: Int

        /// A transport sending through `network` at `priority`, reading request bodies of up to
        /// `maximumRequestBodySize` bytes (16 MiB unless given).
        public init(
            network: any Network,
            priority: RequestPriority = .normal,
            maximumRequestBodySize: Int = 16 * 1024 * 1024
        ) {
            self.network = network
            self.priority = priority
            self.maximumRequestBodySize = maximumRequestBodySize
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
                    networkRequest.body = .data(
                        try await Self.collect(body, upTo: maximumRequestBodySize), contentType: nil)
                }
                networkRequest.customProperties[OpenAPIOperationID.self] = operationID
                let response: NetworkResponse
                do {
                    response = try await network.send(networkRequest, priority: priority)
                } catch let error as NetworkError {
                    guard let answered = error.answeredResponse else { throw error }
                    response = answered
                }
                return (HTTPResponse(response), HTTPBody(response.body))
            } catch {
                throw ClientError.redacted(
                    wrapping: NetworkError.normalize(error), request: request, baseURL: baseURL,
                    operationID: operationID)
            }
        }

        /// The body's bytes, failing once more than `limit` have arrived.
        private static func collect(_ body: HTTPBody, upTo limit: Int) async throws -> Data {
            if case .known(let length) = body.length, length > limit {
                throw NetworkError.invalidRequest(reason: Self.tooLarge(limit))
            }
            var data = Data()
            for try await chunk in body {
                guard chunk.count <= limit - data.count else {
                    throw NetworkError.invalidRequest(reason: Self.tooLarge(limit))
                }
                data.append(contentsOf: chunk)
            }
            return data
        }

        private static func tooLarge(_ limit: Int) -> String {
            "the request body is larger than the \(limit) bytes NetworkClientTransport reads into memory"
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
            default:
                nil
            }
        }
    }
#endif
