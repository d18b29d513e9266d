#if AsyncHTTPClient
    import AsyncHTTPClient
    import NIOCore

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension AsyncHTTPClientTransport {
        /// Whether `request`, whose connection failed with `error` before any response head
        /// arrived, is sent again, on whichever connection the pool gives it next, at most
        /// ``maximumResends`` times.
        ///
        /// A server closes a keep-alive connection when it has been idle too long or has carried
        /// enough requests (nginx: `keepalive_timeout`, `keepalive_requests`); a request the pool
        /// hands that connection in the same moment fails without an answer. async-http-client
        /// reports that as it is, where `URLSession` (libcurl on Linux, CFNetwork on Apple
        /// platforms) sends the request again on a new connection. So does this transport, when
        /// sending twice cannot apply the request twice (RFC 9110, section 9.2.2): its body can be
        /// read again, and either its method is idempotent or not one byte of it was written
        /// (`requestWasWritten` is `false`: the connection was found closed before its head went
        /// out). Any other request fails with `.transport(URLError(.networkConnectionLost))`: the
        /// server may have received it.
        ///
        /// More than once because a server closes every idle connection of the pool in the same
        /// second: against nginx with four connections idle, a GET sent again met a second closed
        /// one. Each such attempt fails at once, without waiting on the network.
        static func resendsAfterClosedConnection(
            _ request: TransportRequest, error: any Error, requestWasWritten: Bool
        ) -> Bool {
            resendsAfterClosedConnection(
                error: error, requestWasWritten: requestWasWritten, isIdempotent: request.method.isIdempotent,
                bodyIsReplayable: request.body?.isReplayable ?? true)
        }

        /// ``resendsAfterClosedConnection(_:error:requestWasWritten:)`` from the two facts of the
        /// request it reads, for an exchange that keeps those rather than the request.
        static func resendsAfterClosedConnection(
            error: any Error, requestWasWritten: Bool, isIdempotent: Bool, bodyIsReplayable: Bool
        ) -> Bool {
            guard isClosedConnection(error), bodyIsReplayable else { return false }
            return !requestWasWritten || isIdempotent
        }

        /// How many times a request is sent again after a closed connection: the default
        /// `maximumConnectionsPerHost`, so that every idle connection of a host can be found
        /// closed before a request fails.
        static let maximumResends = 8

        /// Whether `error` says the connection was closed under the request.
        private static func isClosedConnection(_ error: any Error) -> Bool {
            switch error {
            case let error as ChannelError:
                switch error {
                case .ioOnClosedChannel, .eof, .alreadyClosed, .outputClosed: return true
                default: return false
                }
            case let error as HTTPClientError:
                return error == .remoteConnectionClosed
            case let error as IOError:
                return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
            default:
                return false
            }
        }
    }
#endif
