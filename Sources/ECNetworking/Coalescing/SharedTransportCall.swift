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
        /// The call ended; its outcome is ``outcome``. Told without the outcome itself, which is
        /// large: every turn is copied several times on its way to a member.
        case finished
    }

    private enum Phase {
        case waitingForSlot
        case onWire
        case finished(TransportCall.Outcome)
        /// Every member left before the call ended; nobody may join it any more.
        case abandoned
    }

    /// One turn of one member: the member's suspended wait, or the turn itself when it was decided
    /// before the member waited for it. Its resource is the member's deadline, armed only for the
    /// member's last wait, the one for the outcome.
    private typealias TurnHandoff = OneShotHandoff<
        UnsafeContinuation<Turn, any Error>, Result<Turn, any Error>, DeadlineScheduler.Token?
    >

    private struct Member {
        let timeout: Duration?
        var turn = TurnHandoff(resources: nil)

        /// A member whose first turn, if given, is already decided: one that joins a call on the
        /// wire is told first that it started. (The first member knows it leads without a turn.)
        init(timeout: Duration?, firstTurn: Turn? = nil) {
            self.timeout = timeout
            if let firstTurn { _ = turn.finish(.success(firstTurn)) }
        }

        /// Decides the member's next turn: returns the suspended wait to resume, or keeps the turn
        /// for the member's next wait when it is not waiting. A turn decided earlier and not yet
        /// collected stays, and this returns `nil`.
        mutating func give(_ next: Result<Turn, any Error>) -> UnsafeContinuation<Turn, any Error>? {
            guard let waiter = turn.finish(next)?.waiter else { return nil }
            turn = TurnHandoff(resources: nil)
            return waiter
        }
    }

    private struct State {
        var phase = Phase.waitingForSlot
        var members: [Int: Member]
        var nextMember = 1
        var leader: Int? = SharedTransportCall.firstMember
    }

    /// The member that creates the call, and leads it.
    static let firstMember = 0

    /// The longest the shared request may go on. The request must outlive any one member's
    /// deadline, and every member's deadline is enforced by the pipeline, so this only stops a
    /// call whose members have no deadline at all.
    static let backstop = Duration.seconds(60 * 60)

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

    /// `request` as a shared call sends it: with ``backstop`` instead of the first member's
    /// timeout, which would end the request for every member at that member's deadline.
    static func wireRequest(_ request: TransportRequest) -> TransportRequest {
        var request = request
        request.timeout = backstop
        return request
    }

    /// The outcome of a call that has finished: what a member told ``Turn/finished`` returns.
    var outcome: TransportCall.Outcome {
        state.withLock { state in
            guard case .finished(let outcome) = state.phase else {
                preconditionFailure("a shared call's outcome is read only once it has finished")
            }
            return outcome
        }
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
            let onWire = if case .onWire = state.phase { true } else { false }
            state.members[member] = Member(timeout: timeout, firstTurn: onWire ? .started : nil)
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
                    if case .finished = state.phase { return (.success(.finished), nil) }
                    // A member missing from an open call has left: its task was cancelled.
                    guard let entry = state.members[member] else { return (.failure(NetworkError.cancelled), nil) }
                    if let decided = state.members[member]?.turn.wait(continuation) {
                        state.members[member]?.turn = TurnHandoff(resources: nil)
                        return (decided, nil)
                    }
                    // On the wire, a member has been told the call started, so it now waits for the
                    // outcome, under its deadline.
                    if case .onWire = state.phase { return (nil, entry.timeout) }
                    return (nil, nil)
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
            // The leader knows it started; every other member is told, now or at its next wait.
            var waiting: [UnsafeContinuation<Turn, any Error>] = []
            for index in state.members.values.indices where state.members.keys[index] != member {
                if let continuation = state.members.values[index].give(.success(.started)) {
                    waiting.append(continuation)
                }
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
            state.members[member]?.turn.updateResources { $0 = token } ?? false
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
                if let next { departure.nextLeader = state.members[next]?.give(.success(.lead)) }
            }
            return departure
        }
        guard var departure else { return }
        // The member is out of the shared state, so its own turn is ended here without the lock.
        let error = timedOut ? NetworkError.timedOut(after: departure.member.timeout ?? .zero) : NetworkError.cancelled
        if let ending = departure.member.turn.finish(.failure(error)) {
            if let deadline = ending.resources { DeadlineScheduler.shared.cancel(deadline) }
            ending.waiter?.resume(throwing: error)
        }
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
        // Out of the shared state, so each turn is ended here without the lock. A member that is
        // not waiting learns the outcome from the phase at its next wait.
        for var member in members {
            guard let ending = member.turn.finish(.success(.finished)) else { continue }
            if let deadline = ending.resources { DeadlineScheduler.shared.cancel(deadline) }
            ending.waiter?.resume(returning: .finished)
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
