import Foundation

/// A request as built for a send through a ``ResponseStore``, the partition it belongs to, and the
/// key its response is stored under: the rules every ``Network`` applies to the store, shared so
/// that a fake network, a stored read and a real send all find the same entry.
package struct StorableNetworkRequest: Sendable {
    /// The request as built, with the request value's custom properties.
    package var request: NetworkRequest
    /// The request with the default headers the pipeline adds: what the key and `Vary` see.
    package var keyed: NetworkRequest
    package var partition: StoragePartition?
    /// `nil` when the request carries a credential without a partition: it bypasses the store.
    package var key: String?
    package var sensitiveData: SensitiveData

    /// Builds `request` and works out its partition and key. The store is read before any action
    /// runs, so each ``StoragePartitioningAction`` among `willBeginActions` says now whose
    /// credential it will add; `cookieHeader` gives the cookies the network will add to a URL.
    package init<R: StorableRequest>(
        _ request: R,
        baseURL: URL,
        defaultHeaders: HTTPHeaders,
        sensitiveData: SensitiveData,
        willBeginActions: [any RequestWillBeginAction],
        cookieHeader: (URL) -> String? = { _ in nil }
    ) async throws {
        let networkRequest = try request.networkRequest(baseURL: baseURL)
        // The key sees the default headers (an `Accept` set for every request) the pipeline adds.
        var keyed = networkRequest
        keyed.headers.addMissing(from: defaultHeaders)

        var partition = keyed.customProperties[StoragePartition.self]
        // A cookie the network's jar will add identifies the user as an `Authorization` header
        // does, though the request as built does not show it.
        var carriesCredential = sensitiveData.carriesCredentials(keyed) || cookieHeader(keyed.url) != nil
        for action in willBeginActions {
            guard let partitioning = action as? any StoragePartitioningAction,
                case .credential(let claimed) = await partitioning.storageIdentity(for: keyed)
            else { continue }
            carriesCredential = true
            if let claimed { partition = claimed }
        }
        var requestKey = request.storageKey(for: keyed)
        if partition == nil, !carriesCredential {
            requestKey += Self.keySuffix(forQueryOf: keyed)
        }
        self.request = networkRequest
        self.keyed = keyed
        self.partition = partition
        self.key = if let partition { partition.key(requestKey) } else if carriesCredential { nil } else { requestKey }
        self.sensitiveData = sensitiveData
    }

    /// What tells apart, in a key without a partition, requests whose query values the default
    /// key hides: a digest of the whole URL, or nothing when the default redaction hides nothing.
    ///
    /// The default key (``StorableRequest/storageKey(for:)``) hides the values of the query
    /// parameters logging hides by default, which is safe where those values are credentials: a
    /// request that carries one is stored only in a partition, where the user is the same. But a
    /// network whose ``NetworkConfiguration/sensitiveData`` names fewer stores such a request
    /// without a partition, and two users' values (`?key=ALICE`, `?key=BOB`) made one key: one
    /// user's answer reached the other. The digest keeps them apart without the value in the key.
    private static func keySuffix(forQueryOf request: NetworkRequest) -> String {
        let url = ((try? request.urlWithQuery()) ?? request.url).absoluteString
        guard Redaction.default.urlText(url) != url else { return "" }
        return " URL-SHA256: " + SHA256.hexadecimalHash(url, byteCount: 16)
    }

    /// Whether `sent`, the request as it went on the wire, still belongs where this send read
    /// the store: the same partition, and no credential unless there is a partition.
    package func keepsIdentity(_ sent: NetworkRequest) -> Bool {
        guard sent.customProperties[StoragePartition.self] == partition else { return false }
        return partition != nil || !sensitiveData.carriesCredentials(sent)
    }

    /// The entry for this request in its partition, if it may answer the request (its `Vary`
    /// headers match).
    package func storedResponse(in storage: any ResponseStore) async -> StoredResponse? {
        guard let key, let entry = await storage.storedResponse(for: key) else { return nil }
        return entry.matchesVariedHeaders(of: keyed, sensitiveData: sensitiveData) ? entry : nil
    }

    /// Stores `entry`, the answer to `sent`, unless its identity changed since the store was read
    /// or `Cache-Control` or `Vary` forbid it; when they forbid it, the old entry goes too, since
    /// it is no longer the current answer.
    package func keep(_ entry: StoredResponse, answering sent: NetworkRequest, in storage: any ResponseStore) async {
        guard let key, keepsIdentity(sent) else { return }
        let response = CacheControl(entry.headers)
        let forbidden =
            response.forbidsStoring || CacheControl(sent.headers).forbidsStoring || response.variesOnEverything
            || (response.isPrivate && partition == nil)
        guard !forbidden else {
            await storage.removeResponse(for: key)
            return
        }
        var entry = entry
        entry.variedRequestHeaders = StoredResponse.variedHeaders(
            of: sent, cacheControl: response, sensitiveData: sensitiveData)
        await storage.store(entry, for: key)
    }

    /// Decodes a stored response with `decode`, or removes it from `storage` and returns `nil`
    /// when it no longer decodes, so an old entry never blocks a fresh one.
    package func decodeStored<Value: Sendable>(
        _ stored: StoredResponse,
        in storage: any ResponseStore,
        with decode: (NetworkResponse) throws -> Value
    ) async -> StoredValue<Value>? {
        guard let value = try? decode(stored.networkResponse(for: request)) else {
            if let key { await storage.removeResponse(for: key) }
            return nil
        }
        return StoredValue(value: value, source: .store, age: stored.age())
    }

    /// Reads this request's entry and decodes it, without a network call: what
    /// ``Network/storedValue(for:in:)`` returns.
    package func storedValue<Value: Sendable>(
        in storage: any ResponseStore,
        decode: (NetworkResponse) throws -> Value
    ) async -> StoredValue<Value>? {
        guard let stored = await storedResponse(in: storage) else { return nil }
        return await decodeStored(stored, in: storage, with: decode)
    }

    /// Applies `policy`: answers from the store when it allows, otherwise calls `fetch` with the
    /// entry it may revalidate, and falls back to that entry when the policy says so.
    /// `logStored` hears of each answer from the store, with why it was served.
    ///
    /// Run inside the send's registration (``StorageSend/run(_:in:_:)``): a send cancelled while
    /// the store was read (code the library does not own, which nothing interrupts) ends with
    /// ``NetworkError/cancelled`` once the read returns, rather than with what the store had.
    package func answer<Value: Sendable>(
        policy: StoragePolicy,
        maximumAge: Duration,
        storage: any ResponseStore,
        decode: (NetworkResponse) throws -> Value,
        logStored: (StoredValue<Value>, _ reason: String) -> Void,
        fetch: (StoredResponse?) async throws -> StoredValue<Value>
    ) async throws -> StoredValue<Value> {
        var stored = await storedResponse(in: storage)
        try SendCancellation.checkCancellation()
        if policy == .storedIfFresh, let fresh = stored, fresh.age() < maximumAge {
            if let value = await decodeStored(fresh, in: storage, with: decode) {
                try SendCancellation.checkCancellation()
                logStored(value, "fresh")
                return value
            }
            // It no longer decodes and is gone from the store: revalidating it would be a wasted 304.
            stored = nil
        }
        do {
            return try await fetch(stored)
        } catch {
            guard policy == .networkFallingBackToStored, StoragePolicy.isUnavailability(error), let stored,
                let value = await decodeStored(stored, in: storage, with: decode)
            else { throw error }
            try SendCancellation.checkCancellation()
            logStored(value, "the network failed")
            return value
        }
    }

    /// Streams the stored value, if there is one, then what `fetch` returns (or throws); when the
    /// consumer stops iterating, the fetch is cancelled. The whole of it is one send of
    /// `requestType` registered in `registry` (``StorageSend/run(_:in:_:)``), from `build` on:
    /// `fetch` gets its cancellation, for the exchanges it runs as part of it.
    package static func storedThenFresh<Value: Sendable>(
        _ requestType: ObjectIdentifier,
        registeredIn registry: ActiveSendRegistry,
        build: @escaping @Sendable () async throws -> StorableNetworkRequest,
        storage: any ResponseStore,
        decode: @escaping @Sendable (NetworkResponse) throws -> Value,
        logStored: @escaping @Sendable (NetworkRequest, StoredValue<Value>, _ reason: String) -> Void,
        fetch:
            @escaping @Sendable (StorableNetworkRequest, StoredResponse?, SendCancellation) async throws ->
            StoredValue<Value>
    ) -> AsyncThrowingStream<StoredValue<Value>, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StoredValue<Value>.self)
        let task = Task {
            do {
                try await StorageSend.run(requestType, in: registry) { send in
                    let built = try await build()
                    var stored = await built.storedResponse(in: storage)
                    try SendCancellation.checkCancellation()
                    if let entry = stored {
                        if let value = await built.decodeStored(entry, in: storage, with: decode) {
                            logStored(built.request, value, "until the network answers")
                            continuation.yield(value)
                        } else {
                            stored = nil
                        }
                    }
                    continuation.yield(try await fetch(built, stored, send))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
