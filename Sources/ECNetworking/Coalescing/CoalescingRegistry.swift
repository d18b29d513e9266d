import Foundation

/// The coalesced GETs in progress, waiting for a slot or on the wire, so that an identical one
/// joins instead of sending again.
final class CoalescingRegistry: Sendable {
    private let calls = LockedState([CoalescingKey: SharedTransportCall]())

    /// Makes the caller a member of the identical call in progress, or of a new call made with
    /// `makeCall`, which it then leads. Looking up and joining happen under one lock, so a call
    /// whose last member is abandoning it at that moment is never joined: a new one replaces it.
    func join(
        _ key: CoalescingKey,
        timeout: Duration?,
        makeCall: () -> TransportCall
    ) -> (call: SharedTransportCall, member: Int) {
        calls.withLock { calls in
            if let existing = calls[key], let member = existing.join(timeout: timeout) {
                return (existing, member)
            }
            let shared = SharedTransportCall(makeCall(), firstMemberTimeout: timeout, registry: self, key: key)
            calls[key] = shared
            return (shared, SharedTransportCall.firstMember)
        }
    }

    /// How many sends are members of the calls in progress.
    var waiterCount: Int { calls.withLock { $0.values.reduce(0) { $0 + $1.memberCount } } }

    /// Forgets `call` unless a newer call with the same key has taken its place. The call tells
    /// it once, when it ends or is abandoned.
    func forget(_ key: CoalescingKey, _ call: SharedTransportCall) {
        // Released after the lock: it may be the last reference to the call.
        let forgotten = calls.withLock { calls -> SharedTransportCall? in
            guard let index = calls.index(forKey: key), calls.values[index] === call else { return nil }
            return calls.remove(at: index).value
        }
        withExtendedLifetime(forgotten) {}
    }
}
