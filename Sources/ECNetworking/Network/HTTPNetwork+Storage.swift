import Foundation

extension HTTPNetwork {
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
    /// - Throws: what ``send(_:priority:)->R.Response`` throws, unless `policy` serves the stored response
    ///   instead.
    public func send<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        policy: StoragePolicy,
        priority: RequestPriority
    ) async throws -> StoredValue<R.Response> {
        // Registered before the store is read: after `invalidate()` every send fails, also one
        // the store could answer, and one in progress is cancelled wherever it is.
        try await StorageSend.run(ObjectIdentifier(R.self), in: activeSends) { send in
            let built = try await buildStorableRequest(request)
            noteIfBypassingStorage(built)
            return try await built.answer(
                policy: policy, maximumAge: request.maximumStorageAge, storage: storage,
                decode: { try request.decodedResponse(from: $0, configuration: self.configuration) },
                logStored: { value, reason in
                    runner.reportStoredAnswer(built.request, age: value.age, reason: reason)
                },
                fetch: { stored in
                    try await fetch(
                        request, built: built, stored: stored, storage: storage, priority: priority, partOf: send)
                })
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
    /// stops iterating, the send is cancelled; a consumer whose task is cancelled sees the sequence
    /// end, with no error (as an `AsyncThrowingStream` ends for a cancelled consumer).
    public func storedThenFresh<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        priority: RequestPriority
    ) -> AsyncThrowingStream<StoredValue<R.Response>, any Error> {
        StorableNetworkRequest.storedThenFresh(
            ObjectIdentifier(R.self), registeredIn: activeSends,
            build: {
                let built = try await self.buildStorableRequest(request)
                self.noteIfBypassingStorage(built)
                return built
            },
            storage: storage,
            decode: { try request.decodedResponse(from: $0, configuration: self.configuration) },
            logStored: { [runner] request, value, reason in
                runner.reportStoredAnswer(request, age: value.age, reason: reason)
            },
            fetch: { built, stored, send in
                try await self.fetch(
                    request, built: built, stored: stored, storage: storage, priority: priority, partOf: send)
            })
    }

    /// Reads the stored answer to `request` without a network call, with the same key, partition
    /// and `Vary` rules as ``send(_:storage:policy:priority:)``; `nil` when there is none that may
    /// answer it, or when it no longer decodes (it is then removed). No action runs; a
    /// ``StoragePartitioningAction`` only names the partition the request belongs to.
    public func storedValue<R: StorableRequest>(for request: R, in storage: any ResponseStore) async throws
        -> StoredValue<R.Response>?
    {
        let built = try await buildStorableRequest(request)
        return await built.storedValue(in: storage) {
            try request.decodedResponse(from: $0, configuration: self.configuration)
        }
    }

    private func buildStorableRequest<R: StorableRequest>(_ request: R) async throws -> StorableNetworkRequest {
        try await StorableNetworkRequest(
            request, baseURL: configuration.baseURL, defaultHeaders: configuration.defaultHeaders,
            sensitiveData: configuration.sensitiveData, willBeginActions: actions.snapshot.willBegin,
            cookieHeader: { [cookies = route.cookies] url in cookies?.cookieHeader(for: url) })
    }

    /// Asks the network, conditionally when `stored` has validators and the request, after its
    /// will-begin actions, still belongs to the entry's partition. If a 304 confirms a stored body
    /// that no longer decodes, the entry is dropped and the request sent again without conditions,
    /// once. Each exchange is part of `send`, the storage send registered from its start.
    private func fetch<R: StorableRequest>(
        _ request: R,
        built: StorableNetworkRequest,
        stored: StoredResponse?,
        storage: any ResponseStore,
        priority: RequestPriority,
        partOf send: SendCancellation
    ) async throws -> StoredValue<R.Response> {
        if let stored, stored.hasValidators {
            // The validators go on after the will-begin actions, and only if the request is still
            // this partition's (see `PendingRevalidation.apply(to:)`).
            var conditional = built.request
            conditional.customProperties[PendingRevalidation.Key.self] = PendingRevalidation(
                stored: stored, defaultAcceptableStatusCodes: configuration.acceptableStatusCodes,
                belongsToEntry: { [built] in built.keepsIdentity($0) })
            let value = try await exchange(
                request, networkRequest: conditional, built: built, stored: stored, storage: storage,
                priority: priority, partOf: send)
            if let value { return value }
        }
        guard
            let value = try await exchange(
                request, networkRequest: built.request, built: built, stored: nil, storage: storage,
                priority: priority, partOf: send)
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
        priority: RequestPriority,
        partOf send: SendCancellation
    ) async throws -> StoredValue<R.Response>? {
        try await runner.send(
            networkRequest, registration: .partOf(send), as: ObjectIdentifier(R.self), priority: priority,
            through: { NetworkTransportStep(network: self) }
        ) { response, context in
            let decodingStart = SendClock.now
            let sent = response.request ?? networkRequest
            let value: R.Response
            let entry: StoredResponse?
            if let stored, response.statusCode == 304, sent.customProperties[PendingRevalidation.Applied.self] {
                // Another identity's 304 says nothing about the body this partition stored.
                guard built.keepsIdentity(sent) else { return nil }
                let refreshed = stored.refreshed(by: response)
                guard
                    let decoded = try? request.decodedResponse(
                        from: refreshed.networkResponse(for: sent), configuration: configuration)
                else {
                    if let key = built.key { await storage.removeResponse(for: key) }
                    return nil
                }
                value = decoded
                entry = refreshed
            } else {
                value = try request.decodedResponse(from: response, configuration: configuration)
                entry = response.isSuccessful ? StoredResponse(response) : nil
            }
            // Cancelled while its answer was decoded: the value is dropped, and nothing is stored.
            try context.endDecoding(startedAt: decodingStart)
            // Without the request as sent, its credential and partition are unknown: not stored. Nor,
            // without a partition, is an answer to cookies the network's store added on the wire
            // (a login that landed while this send waited for its slot, or a redirect to where
            // the store has some): the request as sent does not show them, yet they name a user.
            if let entry, let sent = response.request, built.partition != nil || !context.sentStoredCookies {
                await built.keep(entry, answering: sent, in: storage)
            }
            return StoredValue(value: value, source: .network)
        }
    }

    /// Logs, the first time only, that a storage send goes around the store because its request
    /// carries a credential without a partition: the rule keeps one user's answers from another,
    /// and without a word an app-wide key in the default headers would quietly turn storage off.
    private func noteIfBypassingStorage(_ built: StorableNetworkRequest) {
        guard built.key == nil, !runner.observers.isEmpty else { return }
        let isFirst = storageBypassLogged.withLock { logged in
            defer { logged = true }
            return !logged
        }
        if isFirst { runner.reportStorageBypassed(built.request) }
    }
}
