import Foundation

extension URLSessionNetwork {
    /// Sends a request through a ``ResponseStore``: answers from the store when `policy` allows,
    /// otherwise asks the network (conditionally, when the stored response has an `ETag` or
    /// `Last-Modified`) and stores a successful answer.
    ///
    /// ```swift
    /// let users = try await network.send(ListUsersRequest(), storage: store, policy: .storedIfFresh)
    /// if users.source == .store { showStaleBanner(age: users.age) }
    /// ```
    ///
    /// A network send runs every action stage and the validation like any other send, so
    /// authentication applies and the metrics hook is called. An answer from the store makes no
    /// network call; with logging on it writes one `<-- stored` line. A `304 Not Modified` answer
    /// decodes the stored body, which was not sent again, and stores it anew. Only 2xx answers that
    /// decode are stored; a stored body that no longer decodes (the model changed) is dropped and
    /// fetched again.
    ///
    /// - Throws: what ``send(_:priority:)`` throws, unless `policy` serves the stored response
    ///   instead.
    public func send<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        policy: StoragePolicy,
        priority: RequestPriority = .normal
    ) async throws -> StoredValue<R.Response> {
        let built = try buildStorableRequest(request)
        var stored = await storage.storedResponse(for: built.key)
        if policy == .storedIfFresh, let fresh = stored, fresh.age() < request.maximumStorageAge {
            if let value = await decodeStored(fresh, for: request, built: built, storage: storage) {
                loggingAction?.logStoredValue(of: built.request, age: value.age, reason: "fresh")
                return value
            }
            // It no longer decodes and is gone from the store: revalidating it would be a wasted 304.
            stored = nil
        }
        do {
            return try await fetch(request, built: built, stored: stored, storage: storage, priority: priority)
        } catch {
            guard policy == .networkFallingBackToStored, StoragePolicy.isUnavailability(error), let stored,
                let value = await decodeStored(stored, for: request, built: built, storage: storage)
            else { throw error }
            loggingAction?.logStoredValue(of: built.request, age: value.age, reason: "the network failed")
            return value
        }
    }

    /// Sends a request and streams the stored response at once, if there is one, then the network's
    /// answer; the store's value comes marked ``ResponseSource/store`` with its age, so a screen can
    /// show it while the fresh one loads.
    ///
    /// ```swift
    /// for try await users in network.storedThenFresh(ListUsersRequest(), storage: store) {
    ///     show(users.value)
    /// }
    /// ```
    ///
    /// The stream ends after the network's answer, or throws the network's error (after the stored
    /// value, if there was one). The network send is conditional like that of
    /// ``send(_:storage:policy:priority:)``, and its successful answer is stored. When the consumer
    /// stops iterating, the send is cancelled.
    public func storedThenFresh<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        priority: RequestPriority = .normal
    ) -> AsyncThrowingStream<StoredValue<R.Response>, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StoredValue<R.Response>.self)
        let task = Task {
            do {
                let built = try buildStorableRequest(request)
                var stored = await storage.storedResponse(for: built.key)
                if let entry = stored {
                    if let value = await decodeStored(entry, for: request, built: built, storage: storage) {
                        loggingAction?.logStoredValue(
                            of: built.request, age: value.age, reason: "until the network answers")
                        continuation.yield(value)
                    } else {
                        stored = nil
                    }
                }
                let fresh = try await fetch(request, built: built, stored: stored, storage: storage, priority: priority)
                continuation.yield(fresh)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// A request as built for a storable send, and the key its response is stored under.
    private struct StorableNetworkRequest {
        var request: NetworkRequest
        var key: String
    }

    private func buildStorableRequest<R: StorableRequest>(_ request: R) throws -> StorableNetworkRequest {
        var networkRequest = try request.buildRequest(with: configuration.baseURL)
        networkRequest.customProperties.merge(request.customProperties)
        // The key sees the default headers (an `Accept` set for every request) the pipeline adds.
        var keyed = networkRequest
        keyed.headers.addMissing(from: configuration.defaultHeaders)
        return StorableNetworkRequest(request: networkRequest, key: request.storageKey(for: keyed))
    }

    /// Asks the network, conditionally when `stored` has validators. If a 304 confirms a stored
    /// body that no longer decodes, the entry is dropped and the request sent again without
    /// conditions, once.
    private func fetch<R: StorableRequest>(
        _ request: R,
        built: StorableNetworkRequest,
        stored: StoredResponse?,
        storage: any ResponseStore,
        priority: RequestPriority
    ) async throws -> StoredValue<R.Response> {
        if let stored {
            var conditional = built.request
            if conditional.makeConditional(
                on: stored, defaultAcceptableStatusCodes: configuration.acceptableStatusCodes)
            {
                let value = try await exchange(
                    request, networkRequest: conditional, key: built.key, stored: stored, storage: storage,
                    priority: priority)
                if let value { return value }
                await storage.removeResponse(for: built.key)
            }
        }
        guard
            let value = try await exchange(
                request, networkRequest: built.request, key: built.key, stored: nil, storage: storage,
                priority: priority)
        else {
            // Without a stored entry the request is not conditional, so a 304 fails validation
            // (or, if the request itself accepts 304, is decoded as it is) and cannot get here.
            throw NetworkError.invalidResponse
        }
        return value
    }

    /// One network send through every stage: decodes and stores a 2xx answer, or decodes the
    /// stored body confirmed by a 304. Returns `nil` only when that stored body no longer decodes.
    private func exchange<R: StorableRequest>(
        _ request: R,
        networkRequest: NetworkRequest,
        key: String,
        stored: StoredResponse?,
        storage: any ResponseStore,
        priority: RequestPriority
    ) async throws -> StoredValue<R.Response>? {
        try await reportingMetrics(of: networkRequest) { context in
            let response = try await perform(
                networkRequest, requestType: ObjectIdentifier(R.self), priority: priority, context: &context)
            let decodingStart = context.clock.now
            let value: R.Response
            let entry: StoredResponse?
            if let stored, response.statusCode == 304 {
                let refreshed = stored.refreshed(by: response)
                guard
                    let decoded = try? decode(
                        request, from: refreshed.networkResponse(for: response.request ?? networkRequest))
                else { return nil }
                value = decoded
                entry = refreshed
            } else {
                value = try decode(request, from: response)
                entry = response.isSuccessful ? StoredResponse(response) : nil
            }
            context.timings.decoding = context.elapsed(since: decodingStart)
            if let entry { await storage.store(entry, for: key) }
            return StoredValue(value: value, source: .network)
        }
    }

    /// Decodes a stored response, or removes it from `storage` and returns `nil` when it no longer
    /// decodes, so an old entry never blocks a fresh one.
    private func decodeStored<R: StorableRequest>(
        _ stored: StoredResponse,
        for request: R,
        built: StorableNetworkRequest,
        storage: any ResponseStore
    ) async -> StoredValue<R.Response>? {
        guard let value = try? decode(request, from: stored.networkResponse(for: built.request)) else {
            await storage.removeResponse(for: built.key)
            return nil
        }
        return StoredValue(value: value, source: .store, age: stored.age())
    }
}
