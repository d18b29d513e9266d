#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore

    /// An `HTTPClientResponse` body as the chunks of `Data` a ``ByteStream`` carries: counted
    /// against the response size limit as they arrive, with async-http-client's errors mapped to
    /// ``NetworkError``.
    ///
    /// It is pulled one chunk at a time, so async-http-client reads from the socket no faster than
    /// the consumer reads; dropping it unfinished cancels the exchange and closes the connection.
    struct ResponseBodyChunks: AsyncSequence, Sendable {
        typealias Element = Data

        let body: HTTPClientResponse.Body
        let limit: Int?
        /// Keeps a client the transport owns alive while its body is read, even when the transport
        /// itself is already gone.
        let owner: OwnedHTTPClient?

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: body.makeAsyncIterator(), limit: limit, owner: owner)
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: HTTPClientResponse.Body.AsyncIterator
            let limit: Int?
            let owner: OwnedHTTPClient?
            var receivedCount = 0

            mutating func next() async throws -> Data? {
                let buffer: ByteBuffer?
                do {
                    buffer = try await base.next()
                } catch {
                    throw AsyncHTTPClientTransport.networkError(for: error)
                }
                guard let buffer else {
                    // A cancelled reader sees the body end early, without an error, so an end seen
                    // by a cancelled task is not trusted to be the real one.
                    if Task.isCancelled { throw NetworkError.cancelled }
                    return nil
                }
                receivedCount += buffer.readableBytes
                if let limit, receivedCount > limit { throw NetworkError.responseTooLarge(limit: limit) }
                return Data(buffer.readableBytesView)
            }
        }
    }
#endif
