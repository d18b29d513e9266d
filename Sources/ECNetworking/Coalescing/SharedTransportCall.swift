import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One transport call that several identical sends, its members, share.
///
/// The call belongs to no member: each keeps its own deadline and cancellation and leaves alone
/// when either ends it, and the call is cancelled only when its last member leaves. One member
/// leads: it takes the concurrency slot and puts the call on the wire. If it leaves while still
/// waiting for the slot, the next member takes over, so no other member takes a slot and none
/// inherits the leader's fate.
final class SharedTransportCall: Sendable {
    /// What a member is told when it waits.
    enum Turn {
        /// The member leads: it takes a concurrency slot, then calls ``start(_:whenDone:)``.
        case lead
        /// The call is on the wire: the member runs its began actions, then waits again.
        case started
        /// The call ended with this outcome.
        case finished(TransportCall.Outcome)
    }

    private enum Phase {
        case waitingForSlot
        case onWire
        case finished(TransportCall.Outcome)
        /// Every member left before the call ended; nobody may join it any more.
        case abandoned
    }

    private struct Member {
        let timeout: Duration?
        var continuation: UnsafeContinuation<Turn, any Error>?
        var deadline: DeadlineScheduler.Token?
        var knowsStarted = false
    }

    private struct State {
        var phase = Phase.waitingForSlot
        var members: [Int: Member]
        var nextMember = 1
        var leader: Int? = SharedTransportCall.firstMember
    }

    /// The member that creates the call, and leads it.
    static let firstMember = 0

    /// The longest the session lets the shared request go on (as `URLRequest.timeoutInterval`).
    /// The request must outlive any one member's deadline, and every member's deadline is
    /// enforced by the pipeline, so this only stops a call whose members have no deadline at all.
    static let sessionBackstop: TimeInterval = 60 * 60

    private let call: TransportCall
    private let state: LockedState<State>
    /// Called once when the call ends or is abandoned, so the registry forgets it.
    private let onEnd: @Sendable (SharedTransportCall) -> Void

    /// Creates a call whose first member, ``firstMember``, has `timeout` and leads.
    init(
        _ call: TransportCall,
        firstMemberTimeout timeout: Duration?,
        onEnd: @escaping @Sendable (SharedTransportCall) -> Void
    ) {
        self.call = call
        self.state = LockedState(State(members: [Self.firstMember: Member(timeout: timeout)]))
        self.onEnd = onEnd
    }

    /// `urlRequest` as a shared call sends it: with ``sessionBackstop`` instead of the first
    /// member's timeout, which would end the request for every member at that member's deadline.
    static func wireRequest(_ urlRequest: URLRequest) -> URLRequest {
        var urlRequest = urlRequest
        urlRequest.timeoutInterval = max(urlRequest.timeoutInterval, sessionBackstop)
        return urlRequest
    }

    /// How many sends are members.
    var memberCount: Int { state.withLock { $0.members.count } }

    /// Adds a member whose deadline is `timeout`, or returns `nil` when the call has ended or
    /// been abandoned, since nobody may join it then. The registry calls this under its own lock,
    /// so a call is never joined at the moment its last member abandons it.
    func join(timeout: Duration?) -> Int? {
        state.withLock { state in
            switch state.phase {
            case .waitingForSlot, .onWire: break
            case .finished, .abandoned: return nil
            }
            let member = state.nextMember
            state.nextMember += 1
            state.members[member] = Member(timeout: timeout)
            return member
        }
    }

    /// Waits for the member's next turn. A member waiting for the outcome has its deadline armed
    /// from then (or from when the call went on the wire, if it joined before); the deadline and
    /// cancelling the calling task end only this member, with ``NetworkError/timedOut(after:)``
    /// or ``NetworkError/cancelled``.
    func wait(_ member: Int) async throws -> Turn {
        try await SendCancellation.withCancellationHandler {
            // Unchecked: a member is resumed only after its continuation is taken out of the state
            // under the lock, so it is resumed exactly once; the checked kind costs an allocation.
            try await withUnsafeThrowingContinuation { continuation in
                let (turn, deadline) = state.withLock { state -> (Result<Turn, any Error>?, Duration?) in
                    if case .finished(let outcome) = state.phase { return (.success(.finished(outcome)), nil) }
                    // A member missing from an open call has left: its task was cancelled.
                    guard let entry = state.members[member] else { return (.failure(NetworkError.cancelled), nil) }
                    switch state.phase {
                    case .waitingForSlot where state.leader == member:
                        return (.success(.lead), nil)
                    case .onWire where !entry.knowsStarted:
                        state.members[member]?.knowsStarted = true
                        return (.success(.started), nil)
                    case .onWire:
                        state.members[member]?.continuation = continuation
                        return (nil, entry.timeout)
                    default:
                        state.members[member]?.continuation = continuation
                        return (nil, nil)
                    }
                }
                if let turn {
                    continuation.resume(with: turn)
                } else if let deadline {
                    arm(member, after: deadline)
                }
            }
        } onCancel: { [self] in
            leave(member, timedOut: false)
        }
    }

    /// Puts the call on the wire for `member`, which leads and holds a concurrency slot;
    /// `whenDone` is called exactly once, when the transport call ends, to free the slot.
    ///
    /// - Returns: `false`, without starting, when `member` no longer leads because it left; the
    ///   caller then frees the slot itself.
    func start(_ member: Int, whenDone: @escaping @Sendable () -> Void) -> Bool {
        let waiting = state.withLock { state -> [UnsafeContinuation<Turn, any Error>]? in
            guard case .waitingForSlot = state.phase, state.leader == member, state.members[member] != nil else {
                return nil
            }
            state.phase = .onWire
            state.leader = nil
            state.members[member]?.knowsStarted = true
            var waiting: [UnsafeContinuation<Turn, any Error>] = []
            for index in state.members.values.indices {
                guard let continuation = state.members.values[index].continuation else { continue }
                state.members.values[index].continuation = nil
                state.members.values[index].knowsStarted = true
                waiting.append(continuation)
            }
            return waiting
        }
        guard let waiting else { return false }
        for continuation in waiting { continuation.resume(returning: .started) }
        call.start { outcome in
            whenDone()
            self.finish(outcome)
        }
        return true
    }

    /// Removes `member` if it has not left yet, as a send does when it ends with an error of
    /// its own (a failed wait for a slot).
    func leave(_ member: Int) {
        leave(member, timedOut: false)
    }

    fileprivate func deadlinePassed(for member: Int) {
        leave(member, timedOut: true)
    }

    private func arm(_ member: Int, after timeout: Duration) {
        let token = DeadlineScheduler.shared.schedule(after: timeout, MemberDeadline(call: self, member: member))
        // The member may have had its outcome meanwhile; then the deadline is no longer wanted.
        let kept = state.withLock { state in
            guard state.members[member]?.continuation != nil else { return false }
            state.members[member]?.deadline = token
            return true
        }
        if !kept { DeadlineScheduler.shared.cancel(token) }
    }

    /// What a member's leaving sets off, taken out of the state under its lock.
    private struct Departure {
        var member: Member
        /// The waiting member that leads now, if the one who left led.
        var nextLeader: UnsafeContinuation<Turn, any Error>?
        var abandoned: Bool
    }

    private func leave(_ member: Int, timedOut: Bool) {
        let departure = state.withLock { state -> Departure? in
            guard let removed = state.members.removeValue(forKey: member) else { return nil }
            var departure = Departure(member: removed, abandoned: state.members.isEmpty)
            if departure.abandoned {
                state.phase = .abandoned
                state.leader = nil
            } else if state.leader == member {
                let next = state.members.keys.min()
                state.leader = next
                if let next {
                    departure.nextLeader = state.members[next]?.continuation
                    state.members[next]?.continuation = nil
                }
            }
            return departure
        }
        guard let departure else { return }
        if let deadline = departure.member.deadline { DeadlineScheduler.shared.cancel(deadline) }
        let error = timedOut ? NetworkError.timedOut(after: departure.member.timeout ?? .zero) : NetworkError.cancelled
        departure.member.continuation?.resume(throwing: error)
        departure.nextLeader?.resume(returning: .lead)
        if departure.abandoned {
            onEnd(self)
            // Frees the slot through `whenDone` if the call was on the wire; a call still waiting
            // for a slot only records that it must never start.
            call.cancel()
        }
    }

    private func finish(_ outcome: TransportCall.Outcome) {
        let members = state.withLock { state -> [Member]? in
            // An abandoned call was cancelled by its last member, who already had its answer.
            guard case .onWire = state.phase else { return nil }
            state.phase = .finished(outcome)
            defer { state.members = [:] }
            return Array(state.members.values)
        }
        guard let members else { return }
        onEnd(self)
        for member in members {
            if let deadline = member.deadline { DeadlineScheduler.shared.cancel(deadline) }
            member.continuation?.resume(returning: .finished(outcome))
        }
    }
}

/// Tells a shared call that one member's deadline passed.
private final class MemberDeadline: DeadlineTarget {
    let call: SharedTransportCall
    let member: Int

    init(call: SharedTransportCall, member: Int) {
        self.call = call
        self.member = member
    }

    func deadlinePassed() {
        call.deadlinePassed(for: member)
    }
}
