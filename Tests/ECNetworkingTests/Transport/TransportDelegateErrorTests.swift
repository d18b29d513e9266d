#if canImport(FoundationNetworking)
    import Foundation
    import Testing

    @testable import ECNetworking

    /// FoundationNetworking reports some of libcurl's failures only by its message, with code -1
    /// (`.unknown`); the URLSession transport names them as Apple's `URLSession` and the
    /// AsyncHTTPClient transport do. The messages are libcurl's own, as FoundationNetworking passes
    /// them on.
    @Suite("URLSession transport: libcurl's failures by their message")
    struct TransportDelegateErrorTests {
        private static func code(of message: String, afterHead: Bool = false) -> URLError.Code? {
            let error = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
            guard case .transport(let mapped)? = TransportDelegate.mapped(error, afterHead: afterHead) as? NetworkError
            else { return nil }
            return mapped.code
        }

        // "Send failure: Broken pipe" reached a caller as "the server could not be reached", and a
        // POST the server had partly read was not marked as one it may have received.
        @Test(
            "a connection that fails under the request or before the answer's head is a lost connection",
            arguments: [
                "Send failure: Broken pipe", "Send failure: Connection reset by peer",
                "Recv failure: Connection reset by peer",
            ])
        func connectionFailures(message: String) {
            #expect(Self.code(of: message) == .networkConnectionLost)
        }

        @Test("a failed TLS handshake is a secure connection failure")
        func tlsFailure() {
            let message = "SSL certificate problem: unable to get local issuer certificate"
            #expect(Self.code(of: message) == .secureConnectionFailed)
        }

        @Test("libcurl's unsupported protocol before a head, its word for an answer that is not HTTP, is a bad answer")
        func answerThatIsNotHTTP() throws {
            let error = URLError(
                .unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "Received HTTP/0.9 when not allowed"])
            let mapped = try #require(TransportDelegate.mapped(error, afterHead: false) as? NetworkError)
            guard case .transport(let urlError) = mapped else {
                Issue.record("got \(mapped)")
                return
            }
            #expect(urlError.code == .badServerResponse)
        }

        @Test("any other message stays unknown before the head, and is a lost connection after it")
        func otherMessages() {
            #expect(Self.code(of: "Failed sending data to the peer") == .unknown)
            #expect(Self.code(of: "Failed sending data to the peer", afterHead: true) == .networkConnectionLost)
        }
    }
#endif
