#if AsyncHTTPClient
    import AsyncHTTPClient
    import Dispatch

    /// A client the transport created, shut down exactly once: by ``shutdown()``, or else when the
    /// last transport copy and response body holding it go away.
    final class OwnedHTTPClient: Sendable {
        let client: HTTPClient
        private let isShutDown = LockedState(false)

        init(client: HTTPClient) {
            self.client = client
        }

        /// Whether ``shutdown()`` has begun (or the owner is going away): from then on the client
        /// refuses new requests.
        var hasShutDown: Bool {
            isShutDown.withLock { $0 }
        }

        /// Shuts the client down; a second call returns at once.
        func shutdown() async throws {
            guard markShutDown() else { return }
            try await client.shutdown()
        }

        /// Whether this call is the one that shuts the client down.
        private func markShutDown() -> Bool {
            isShutDown.withLock { isShutDown in
                defer { isShutDown = true }
                return !isShutDown
            }
        }

        deinit {
            guard markShutDown() else { return }
            // Releasing a client that was not shut down stops a debug build (async-http-client's
            // precondition). The callback form starts the shutdown without blocking this thread,
            // which may be an event loop's, and its completion holds the client until it is done,
            // so the client is never released half shut down.
            client.shutdown(queue: .global()) { _ in }
        }
    }
#endif
