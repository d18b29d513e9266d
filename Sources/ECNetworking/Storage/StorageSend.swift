/// A send through a ``ResponseStore`` as one registered send, from its start to its end.
///
/// A storage send does more than ask the network: its ``StoragePartitioningAction``s say whose
/// credential it carries, it reads the store (code the library does not own), it may ask the
/// network twice (a `304` that confirms a body that no longer decodes), and it stores the answer.
/// Registered only while it asked the network, `invalidate()` met a send still reading its store
/// as a new one (``NetworkError/invalidated``), `cancelAll` did not reach it, and
/// `finishSendsAndInvalidate()` returned while it was in progress. Registered from its start, it is
/// one send in the activity count, and each exchange with the network runs as
/// ``SendRegistration/partOf(_:)`` it.
package enum StorageSend {
    /// Runs `body`, the whole storage send of a request of `requestType`, registered in
    /// `registry`; `body` gets the send's cancellation, for its exchanges with the network.
    ///
    /// - Throws: ``NetworkError/invalidated`` without running `body` once `registry` is closed,
    ///   ``NetworkError/cancelled`` however a cancellation surfaced, otherwise what `body` throws.
    package static func run<Value>(
        _ requestType: ObjectIdentifier,
        in registry: ActiveSendRegistry,
        _ body: (SendCancellation) async throws -> Value
    ) async throws -> Value {
        do {
            return try await registry.track(requestType) { send in try await body(send) }
        } catch is CancellationError {
            throw NetworkError.cancelled
        }
    }
}
