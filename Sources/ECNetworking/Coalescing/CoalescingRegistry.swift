import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The GETs on the wire right now, so that an identical one joins instead of sending again.
final class CoalescingRegistry: Sendable {
    private let calls = LockedState([CoalescingKey: SharedTransportCall]())

    /// Joins the identical call on the wire, or starts one with `makeCall`.
    func send(_ key: CoalescingKey, makeCall: () -> TransportCall) async throws -> (Data, URLResponse) {
        let (shared, isNew) = calls.withLock { calls in
            if let existing = calls[key] { return (existing, false) }
            let shared = SharedTransportCall(makeCall()) { [weak self] ended in self?.forget(key, ended) }
            calls[key] = shared
            return (shared, true)
        }
        if isNew { shared.start() }
        return try await shared.wait()
    }

    /// How many sends wait on the calls on the wire.
    var waiterCount: Int { calls.withLock { $0.values.reduce(0) { $0 + $1.waiterCount } } }

    /// Forgets `call` unless a newer call with the same key has taken its place.
    private func forget(_ key: CoalescingKey, _ call: SharedTransportCall) {
        calls.withLock { calls in
            if calls[key] === call { calls.removeValue(forKey: key) }
        }
    }
}
