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
    /// network call and runs no action; with logging on it writes one `<-- stored` line. A
    /// `304 Not Modified` answer decodes the stored body, which was not sent again, and stores it
    /// anew. Only 2xx answers that decode are stored; a stored body that no longer decodes (the
    /// model changed) is dropped and fetched again.
    ///
    /// Entries are kept per ``StoragePartition``: the request's own, or the one a
    /// ``StoragePartitioningAction`` such as ``AuthenticatingAction`` names before the send. Only
    /// that partition's entry is read, revalidated or replaced. A request that carries a
    /// credential without a partition never touches the store. A response is not stored when it
    /// says `Cache-Control: no-store` (the entry it replaces is removed too), when it says
    /// `private` and the request has no partition, when it says `Vary: *`, or when the request, as
    /// sent, names another partition than the one read (someone else signed in meanwhile; such a
    /// request is not sent the entry's validators either). An entry whose `Vary` headers had other
    /// values than the request's does not answer it.
    ///
    /// - Throws: what ``send(_:priority:)`` throws, unless `policy` serves the stored response
    ///   instead.
    public func send<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        policy: StoragePolicy,
        priority: RequestPriority = .normal
    ) async throws -> StoredValue<R.Response> {
        let built = try await buildStorableRequest(request)
        var stored = await storedResponse(for: built, in: storage)
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
                let built = try await buildStorableRequest(request)
                var stored = await storedResponse(for: built, in: storage)
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

    /// A request as built for a storable send, the partition it belongs to, and the key its
    /// response is stored under.
    private struct StorableNetworkRequest {
        var request: NetworkRequest
        /// The request with the default headers the pipeline adds: what the key and `Vary` see.
        var keyed: NetworkRequest
        var partition: StoragePartition?
        /// `nil` when the request carries a credential without a partition: it bypasses the store.
        var key: String?
        var sensitiveData: SensitiveData

        /// Whether `sent`, the request as it went on the wire, still belongs where this send read
        /// the store: the same partition, and no credential unless there is a partition.
        func keepsIdentity(_ sent: NetworkRequest) -> Bool {
            guard sent.customProperties[StoragePartition.self] == partition else { return false }
            return partition != nil || !sensitiveData.carriesCredentials(sent)
        }
    }

    private func buildStorableRequest<R: StorableRequest>(_ request: R) async throws -> StorableNetworkRequest {
        var networkRequest = try request.buildRequest(with: configuration.baseURL)
        networkRequest.customProperties.merge(request.customProperties)
        // The key sees the default headers (an `Accept` set for every request) the pipeline adds.
        var keyed = networkRequest
        keyed.headers.addMissing(from: configuration.defaultHeaders)
        let sensitiveData = configuration.sensitiveData

        // The store is read before any action runs, so actions that will add a credential say now
        // whose it will be.
        var partition = keyed.customProperties[StoragePartition.self]
        var carriesCredential = sensitiveData.carriesCredentials(keyed)
        for action in actions.snapshot.willBegin {
            guard let partitioning = action as? any StoragePartitioningAction,
                case .credential(let claimed) = await partitioning.storageIdentity(for: keyed)
            else { continue }
            carriesCredential = true
            if let claimed { partition = claimed }
        }
        let requestKey = request.storageKey(for: keyed)
        let key: String? =
            if let partition { partition.key(requestKey) } else if carriesCredential { nil } else { requestKey }
        return StorableNetworkRequest(
            request: networkRequest, keyed: keyed, partition: partition, key: key, sensitiveData: sensitiveData)
    }

    /// The entry for `built` in its partition, if it may answer the request (its `Vary` headers
    /// match).
    private func storedResponse(for built: StorableNetworkRequest, in storage: any ResponseStore) async
        -> StoredResponse?
    {
        guard let key = built.key, let entry = await storage.storedResponse(for: key) else { return nil }
        return entry.matchesVariedHeaders(of: built.keyed, sensitiveData: built.sensitiveData) ? entry : nil
    }

    /// Stores `entry`, the answer to `sent`, unless its identity changed since the store was read
    /// or `Cache-Control` or `Vary` forbid it; when they forbid it, the old entry goes too, since
    /// it is no longer the current answer.
    private func keep(
        _ entry: StoredResponse,
        answering sent: NetworkRequest,
        built: StorableNetworkRequest,
        storage: any ResponseStore
    ) async {
        guard let key = built.key, built.keepsIdentity(sent) else { return }
        let response = CacheControl(entry.headers)
        let forbidden =
            response.forbidsStoring || CacheControl(sent.headers).forbidsStoring || response.variesOnEverything
            || (response.isPrivate && built.partition == nil)
        guard !forbidden else {
            await storage.removeResponse(for: key)
            return
        }
        var entry = entry
        entry.variedRequestHeaders = StoredResponse.variedHeaders(
            of: sent, cacheControl: response, sensitiveData: built.sensitiveData)
        await storage.store(entry, for: key)
    }

    /// Asks the network, conditionally when `stored` has validators and the request, after its
    /// will-begin actions, still belongs to the entry's partition. If a 304 confirms a stored body
    /// that no longer decodes, the entry is dropped and the request sent again without conditions,
    /// once.
    private func fetch<R: StorableRequest>(
        _ request: R,
        built: StorableNetworkRequest,
        stored: StoredResponse?,
        storage: any ResponseStore,
        priority: RequestPriority
    ) async throws -> StoredValue<R.Response> {
        if let stored, stored.hasValidators {
            // The validators go on after the will-begin actions, and only if the request is still
            // this partition's (see `applyPendingRevalidation`).
            var conditional = built.request
            conditional.customProperties[PendingRevalidation.Key.self] = PendingRevalidation(
                stored: stored, defaultAcceptableStatusCodes: configuration.acceptableStatusCodes,
                belongsToEntry: { [built] in built.keepsIdentity($0) })
            let value = try await exchange(
                request, networkRequest: conditional, built: built, stored: stored, storage: storage,
                priority: priority)
            if let value { return value }
        }
        guard
            let value = try await exchange(
                request, networkRequest: built.request, built: built, stored: nil, storage: storage,
                priority: priority)
        else {
            // Without a stored entry the request is not conditional, so a 304 fails validation
            // (or, if the request itself accepts 304, is decoded as it is) and cannot get here.
            throw NetworkError.invalidResponse
        }
        return value
    }

    /// One network send through every stage: decodes and stores a 2xx answer, or decodes the
    /// stored body confirmed by a 304 to a request made conditional on it. Returns `nil` only when
    /// that 304 cannot vouch for the stored body: the body no longer decodes (the entry is
    /// removed), or the request went out with another identity than the one whose entry it
    /// revalidated (which the pipeline already prevents by not making it conditional).
    private func exchange<R: StorableRequest>(
        _ request: R,
        networkRequest: NetworkRequest,
        built: StorableNetworkRequest,
        stored: StoredResponse?,
        storage: any ResponseStore,
        priority: RequestPriority
    ) async throws -> StoredValue<R.Response>? {
        try await reportingMetrics(of: networkRequest) { context in
            let response = try await perform(
                networkRequest, requestType: ObjectIdentifier(R.self), priority: priority, context: &context)
            let decodingStart = context.clock.now
            let sent = response.request ?? networkRequest
            let value: R.Response
            let entry: StoredResponse?
            if let stored, response.statusCode == 304, sent.customProperties[PendingRevalidation.Applied.self] {
                // Another identity's 304 says nothing about the body this partition stored.
                guard built.keepsIdentity(sent) else { return nil }
                let refreshed = stored.refreshed(by: response)
                guard let decoded = try? decode(request, from: refreshed.networkResponse(for: sent)) else {
                    if let key = built.key { await storage.removeResponse(for: key) }
                    return nil
                }
                value = decoded
                entry = refreshed
            } else {
                value = try decode(request, from: response)
                entry = response.isSuccessful ? StoredResponse(response) : nil
            }
            context.timings.decoding = context.elapsed(since: decodingStart)
            // Without the request as sent, its credential and partition are unknown: not stored.
            if let entry, let sent = response.request {
                await keep(entry, answering: sent, built: built, storage: storage)
            }
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
            if let key = built.key { await storage.removeResponse(for: key) }
            return nil
        }
        return StoredValue(value: value, source: .store, age: stored.age())
    }
}
