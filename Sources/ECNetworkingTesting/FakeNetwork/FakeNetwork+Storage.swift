import ECNetworking
import Foundation

extension FakeNetwork {
    /// Sends a request through a real `ResponseStore`, honouring `policy` with the
    /// rules of `HTTPNetwork.send(_:storage:policy:priority:)`: the same key,
    /// `StoragePartition` (named by the request or, when ``runsActions`` is `true`,
    /// by a `StoragePartitioningAction`) and `Vary` rules, so a test can seed a
    /// store and check what the code under test shows.
    ///
    /// The stub stands for the server. An answer from the store records no send, and is reported
    /// to the integrations (a metrics factory counts it) as the real network reports it. A stub's raw
    /// response (``FakeResponse/networkResponse(_:delay:)``, `stub(_:response:)`) is stored when
    /// it succeeds; a value stub has no bytes to store, so it answers without changing the store.
    /// Requests are never made conditional: the stub's answer is taken as the server's. A type
    /// that goes to another network (``route(_:to:)``) is sent there with the same store.
    public func send<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        policy: StoragePolicy,
        priority: RequestPriority
    ) async throws -> StoredValue<R.Response> {
        // As on the real network: after `invalidate()` every send fails, also one the store could answer.
        guard !activeSends.isClosed else { throw NetworkError.invalidated }
        if let network = passingNetwork(for: R.self) {
            recordPassedOn(request)
            return try await network.send(request, storage: storage, policy: policy, priority: priority)
        }
        // One registered send from its start, as on the real network: `cancelAll` and
        // invalidation reach it while it reads the store, and `finishSendsAndInvalidate()` waits.
        return try await StorageSend.run(ObjectIdentifier(R.self), in: activeSends) { send in
            let built = try await storableRequest(request)
            return try await built.answer(
                policy: policy, maximumAge: request.maximumStorageAge, storage: storage,
                decode: { try request.decodedResponse(from: $0, configuration: self.configuration) },
                // The integrations hear of a stored answer as they do from the real network.
                logStored: { [runner] value, reason in
                    runner.reportStoredAnswer(built.request, age: value.age, reason: reason)
                },
                fetch: { _ in try await self.fetchStoring(request, built: built, storage: storage, partOf: send) })
        }
    }

    /// Streams the stored answer, if there is one, then the stub's, storing the stub's raw
    /// response as ``send(_:storage:policy:priority:)`` does.
    public func storedThenFresh<R: StorableRequest>(
        _ request: R,
        storage: any ResponseStore,
        priority: RequestPriority
    ) -> AsyncThrowingStream<StoredValue<R.Response>, any Error> {
        if let network = passingNetwork(for: R.self) {
            recordPassedOn(request)
            return network.storedThenFresh(request, storage: storage, priority: priority)
        }
        return StorableNetworkRequest.storedThenFresh(
            ObjectIdentifier(R.self), registeredIn: activeSends,
            build: { try await self.storableRequest(request) },
            storage: storage,
            decode: { try request.decodedResponse(from: $0, configuration: self.configuration) },
            logStored: { [runner] request, value, reason in
                runner.reportStoredAnswer(request, age: value.age, reason: reason)
            },
            fetch: { built, _, send in
                try await self.fetchStoring(request, built: built, storage: storage, partOf: send)
            })
    }

    /// The stored answer to `request`, decoded, with its age, or `nil`; reads the entry a storage
    /// send would, and records no send. A routed type is read by the network it goes to.
    public func storedValue<R: StorableRequest>(for request: R, in storage: any ResponseStore) async throws
        -> StoredValue<R.Response>?
    {
        if let network = passingNetwork(for: R.self) {
            return try await network.storedValue(for: request, in: storage)
        }
        return try await storableRequest(request).storedValue(in: storage) {
            try request.decodedResponse(from: $0, configuration: self.configuration)
        }
    }

    private func storableRequest<R: StorableRequest>(_ request: R) async throws -> StorableNetworkRequest {
        try await StorableNetworkRequest(
            request, baseURL: configuration.baseURL, defaultHeaders: configuration.defaultHeaders,
            sensitiveData: configuration.sensitiveData, willBeginActions: runner.actions.snapshot.willBegin)
    }

    /// Answers from the stub (as part of `send`, the storage send), and stores its raw response
    /// when it succeeded.
    private func fetchStoring<R: StorableRequest>(
        _ request: R,
        built: StorableNetworkRequest,
        storage: any ResponseStore,
        partOf send: SendCancellation
    ) async throws -> StoredValue<R.Response> {
        let answer = try await answerFromStubs(request, registration: .partOf(send))
        if let response = answer.response, response.isSuccessful, let sent = response.request {
            await built.keep(StoredResponse(response), answering: sent, in: storage)
        }
        return StoredValue(value: answer.value, source: .network)
    }
}
