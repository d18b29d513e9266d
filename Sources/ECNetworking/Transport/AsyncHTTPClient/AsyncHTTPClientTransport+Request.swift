#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1

    extension AsyncHTTPClientTransport {
        /// The `User-Agent` sent when the request names none, as the `URLSession` transport does.
        static let defaultUserAgent = "ECNetworking"

        /// `request` as async-http-client sends it: headers in order with repeats kept, and the body
        /// streamed from memory, a file or a stream without being gathered first.
        static func clientRequest(for request: TransportRequest) throws -> HTTPClientRequest {
            var outgoing = HTTPClientRequest(url: request.url.absoluteString)
            outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
            outgoing.headers = outgoingHeaders(of: request)
            guard let body = request.body else { return outgoing }
            if let progress = request.uploadProgress {
                // Counted as the connection takes each chunk: the client reports nothing sent.
                let length: HTTPClientRequest.Body.Length = body.length.map { .known(Int64($0)) } ?? .unknown
                outgoing.body = .stream(ByteBufferChunks(chunks: body.chunks(reportingTo: progress)), length: length)
                return outgoing
            }
            switch body.source {
            case .bytes(let data):
                outgoing.body = .bytes(data)
            case .file, .stream:
                let length: HTTPClientRequest.Body.Length = body.length.map { .known(Int64($0)) } ?? .unknown
                outgoing.body = .stream(ByteBufferChunks(chunks: body.chunks()), length: length)
            }
            return outgoing
        }

        /// The header fields of `request` as sent: in order, repeats kept, with a `User-Agent`.
        static func outgoingHeaders(of request: TransportRequest) -> NIOHTTP1.HTTPHeaders {
            var headers = NIOHTTP1.HTTPHeaders()
            for field in request.headers {
                headers.add(name: field.name, value: field.value)
            }
            if !request.headers.contains(name: "User-Agent") {
                headers.add(name: "User-Agent", value: defaultUserAgent)
            }
            return headers
        }

        /// The header fields of a response as the library keeps them: in order, repeats kept.
        static func receivedHeaders(_ headers: NIOHTTP1.HTTPHeaders) -> HTTPHeaders {
            var received = HTTPHeaders()
            for (name, value) in headers { received.add(name: name, value: value) }
            return received
        }
    }

    /// A request body's chunks as the `ByteBuffer`s async-http-client writes, read only as fast as
    /// the connection takes them.
    private struct ByteBufferChunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer

        let chunks: ByteStream

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: chunks.makeAsyncIterator())
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: ByteStream.AsyncIterator

            mutating func next() async throws -> ByteBuffer? {
                try await base.next().map { ByteBuffer(bytes: $0) }
            }
        }
    }
#endif
