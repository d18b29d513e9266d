#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOHTTPCompression
    import NIOPosix
    import NIOSSL

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension AsyncHTTPClientTransport {
        /// What async-http-client or SwiftNIO threw, as the ``NetworkError`` the `URLSession`
        /// transport reports for the same failure. The result never carries the original error's
        /// description, which can hold the URL or a header value; a `.transport` error carries its
        /// type and case instead, as ``NetworkError/transportCause``.
        static func networkError(for error: any Error) -> NetworkError {
            let mapped = mappedError(for: error)
            guard case .transport(let urlError) = mapped, !(error is NetworkError) else { return mapped }
            return .transport(URLError(urlError.code, userInfo: [NetworkError.transportCauseKey: cause(of: error)]))
        }

        /// The ``NetworkError`` for `error`, without its cause.
        private static func mappedError(for error: any Error) -> NetworkError {
            if let error = error as? NetworkError { return error }
            if error is CancellationError || Task.isCancelled { return .cancelled }
            switch error {
            case let error as HTTPClientError: return networkError(for: error)
            case let error as NIOConnectionError:
                // Name resolution failed when no address was even tried.
                return error.connectionErrors.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil)
                    ? .transport(URLError(.cannotFindHost)) : .transport(URLError(.cannotConnectToHost))
            case let error as IOError: return .transport(URLError(code(forErrno: error.errnoCode)))
            case let error as ChannelError: return networkError(for: error)
            case let error as HTTPParserError:
                // The connection ended before the body its head announced.
                return error == .invalidEOFState
                    ? .transport(URLError(.networkConnectionLost)) : .transport(URLError(.badServerResponse))
            case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
                return .transport(URLError(.secureConnectionFailed))
            case is NIOHTTPDecompression.DecompressionError:
                return .transport(URLError(.cannotDecodeContentData))
            case let error as NIOHTTPDecompression.ExtraDecompressionError:
                return error == .truncatedData
                    ? .transport(URLError(.networkConnectionLost)) : .transport(URLError(.cannotDecodeContentData))
            default: return .transport(URLError(.unknown))
            }
        }

        private static func networkError(for error: HTTPClientError) -> NetworkError {
            switch error {
            case .cancelled, .requestStreamCancelled:
                return .cancelled
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
                .socksHandshakeTimeout, .httpProxyHandshakeTimeout, .getConnectionFromPoolTimeout:
                return .transport(URLError(.timedOut))
            case .remoteConnectionClosed:
                return .transport(URLError(.networkConnectionLost))
            case .alreadyShutdown:
                return .invalidated
            case .invalidURL, .emptyHost, .emptyScheme:
                return .invalidRequest(reason: "the URL cannot be sent by async-http-client")
            case .bodyLengthMismatch:
                return .announcedLengthMismatch
            default:
                break
            }
            // These carry values (a scheme, header names or values), so they compare by their
            // value-free short description; the values themselves never reach the error.
            switch error.shortDescription {
            case HTTPClientError.unsupportedScheme("").shortDescription:
                return .invalidRequest(reason: "the URL's scheme is not http or https")
            case HTTPClientError.invalidHeaderFieldNames([]).shortDescription,
                HTTPClientError.invalidHeaderFieldValues([]).shortDescription:
                return .invalidRequest(reason: "a header name or value has characters HTTP does not allow")
            default:
                return .transport(URLError(.unknown))
            }
        }

        private static func networkError(for error: ChannelError) -> NetworkError {
            switch error {
            case .connectTimeout: .transport(URLError(.timedOut))
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed:
                .transport(URLError(.networkConnectionLost))
            default: .transport(URLError(.unknown))
            }
        }

        private static func code(forErrno errnoCode: Int32) -> URLError.Code {
            switch errnoCode {
            case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: .cannotConnectToHost
            case ECONNRESET, EPIPE, ECONNABORTED, ENOTCONN: .networkConnectionLost
            case ETIMEDOUT: .timedOut
            default: .unknown
            }
        }
    }
#endif
