import Foundation

extension ByteStream {
    /// This stream as a request body: an error the caller's sequence throws while the body is sent
    /// becomes ``NetworkError/requestBodyFailed(_:)``, so that every transport reports it the same
    /// way and the caller can tell their own stream's failure from the server's or the network's.
    /// A ``NetworkError`` (a second read, a file that shrank) and cancellation pass through as
    /// they are.
    func failingAsRequestBody() -> ByteStream {
        ByteStream(makeIterator: {
            var chunks = self.makeAsyncIterator()
            return AsyncIterator {
                do {
                    return try await chunks.next()
                } catch let error as NetworkError {
                    throw error
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    throw NetworkError.requestBodyFailed(error)
                }
            }
        })
    }
}
