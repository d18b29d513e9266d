#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1

    extension AsyncHTTPClientTransport {
        /// The `User-Agent` sent when the request names none, where the `URLSession` transport
        /// sends `URLSession`'s own.
        static let defaultUserAgent = "ECNetworking"

        /// `request` as async-http-client sends it: headers in order with repeats kept, and the body
        /// streamed from memory, a file or a stream without being gathered first, read no faster
        /// than `client`'s event loops write it (see `ByteBufferChunks`).
        static func clientRequest(for request: TransportRequest, on client: HTTPClient) throws -> HTTPClientRequest {
            var outgoing = HTTPClientRequest(url: request.url.absoluteString)
            outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
            outgoing.headers = outgoingHeaders(of: request)
            guard let body = request.body else { return outgoing }
            if let progress = request.uploadProgress {
                // Counted as the connection takes each chunk: the client reports nothing sent.
                let length: HTTPClientRequest.Body.Length = body.length.map { .known(Int64($0)) } ?? .unknown
                outgoing.body = .stream(
                    ByteBufferChunks(chunks: body.chunks(reportingTo: progress), loops: client.eventLoopGroup),
                    length: length)
                return outgoing
            }
            switch body.source {
            case .bytes(let data):
                outgoing.body = .bytes(data)
            case .file, .stream:
                let length: HTTPClientRequest.Body.Length = body.length.map { .known(Int64($0)) } ?? .unknown
                outgoing.body = .stream(
                    ByteBufferChunks(chunks: body.chunks(), loops: client.eventLoopGroup), length: length)
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
    ///
    /// async-http-client hands each chunk to the connection's event loop and asks for the next one
    /// at once; it stops asking only once the event loop has run those writes and found the
    /// connection's buffer full. A body read faster than the loop writes (a file is) queues chunk
    /// after chunk on the loop in between: a 256 MiB file upload to nginx grew the process by 11 to
    /// 92 MiB from run to run. So after every ``drainInterval`` bytes the iterator marks each of
    /// the client's event loops (the connection's is one of them, which one is not known), and
    /// goes on only once they have run what was queued before the previous mark; by then a full
    /// connection has paused the body, and the next chunk waits for it to drain. At most about two
    /// intervals are ever queued, and reading the file overlaps writing it.
    private struct ByteBufferChunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer

        /// How many bytes go to the event loops between two waits: large enough that the wait
        /// costs nothing next to the copying, small enough to hold memory flat.
        static let drainInterval = 1 << 20

        let chunks: ByteStream
        let loops: any EventLoopGroup

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: chunks.makeAsyncIterator(), loops: loops)
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: ByteStream.AsyncIterator
            let loops: any EventLoopGroup
            /// Bytes handed over since the last mark.
            var sinceDrain = 0
            /// Succeeds once the loops have run what was queued before the latest mark.
            var previousMark: EventLoopFuture<Void>?

            mutating func next() async throws -> ByteBuffer? {
                if sinceDrain >= ByteBufferChunks.drainInterval {
                    sinceDrain = 0
                    // The wait is for the mark before this one: the loops write one interval
                    // while the next is read, rather than the two taking turns, and at most two
                    // intervals are ever queued.
                    try await previousMark?.get()
                    previousMark = Self.mark(loops)
                }
                guard let chunk = try await base.next() else { return nil }
                sinceDrain += chunk.count
                return ByteBuffer(bytes: chunk)
            }

            /// Succeeds once every loop of `group` has run the tasks queued on it before the call.
            private static func mark(_ group: any EventLoopGroup) -> EventLoopFuture<Void>? {
                let passes = group.makeIterator().map { loop in loop.submit {} }
                guard let first = passes.first else { return nil }
                return EventLoopFuture.andAllSucceed(passes, on: first.eventLoop)
            }
        }
    }
#endif
