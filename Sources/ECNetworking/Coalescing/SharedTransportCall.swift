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

    /// Where the call is. Without a payload (the outcome is kept beside it): matching the phase
    /// of a finished call then copies nothing, where it copied the whole response.
    private enum Phase {
        case waitingForSlot
        case onWire
        /// Ended; the outcome is in the state's `outcome`.
        case finished
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

    /// The members: the one that made the call, kept inline, and those that joined, in a
    /// dictionary made only once one joins. Most calls never have a second member, and a
    /// dictionary of one cost an allocation and hashing on every coalesced send.
    private struct Members {
        private var first: Member?
        private var others: [Int: Member] = [:]

        init(first: Member) {
            self.first = first
        }

        var isEmpty: Bool { first == nil && others.isEmpty }

        var count: Int { (first == nil ? 0 : 1) + others.count }

        /// The member that joined first of those still here.
        var earliest: Int? { first != nil ? SharedTransportCall.firstMember : others.keys.min() }

        subscript(member: Int) -> Member? {
            get { member == SharedTransportCall.firstMember ? first : others[member] }
            set {
                if member == SharedTransportCall.firstMember {
                    first = newValue
                } else {
                    others[member] = newValue
                }
            }
        }

        mutating func remove(_ member: Int) -> Member? {
            member == SharedTransportCall.firstMember ? first.take() : others.removeValue(forKey: member)
        }

        /// Changes every member but `excluded`.
        mutating func forEach(except excluded: Int, _ change: (inout Member) -> Void) {
            if excluded != SharedTransportCall.firstMember, first != nil { change(&first!) }
            for index in others.indices where others.keys[index] != excluded {
                change(&others.values[index])
            }
        }

        /// Takes every member out, leaving none.
        mutating func removeAll() -> AllMembers {
            defer { others = [:] }
            return (first.take(), others)
        }
    }

    /// The members taken out of a call that ended.
    private typealias AllMembers = (first: Member?, others: [Int: Member])

    private struct State {
        var phase = Phase.waitingForSlot
        var members: Members
        var nextMember = 1
        var leader: Int? = SharedTransportCall.firstMember
        /// The concurrency slot the leader took for the call, freed when the transport call ends.
        var admission: AdmissionController?
        /// What the call ended with, once it has finished.
        var outcome: TransportCall.Outcome?
    }

    /// The member that creates the call, and leads it.
    static let firstMember = 0

    /// The longest the shared request may go on. The request must outlive any one member's
    /// deadline, and every member's deadline is enforced by the pipeline, so this only stops a
    /// call whose members have no deadline at all.
    static let backstop = Duration.seconds(60 * 60)

    private let call: TransportCall
    private let state: LockedState<State>
    /// Told once when the call ends or is abandoned, so that it forgets the call under `key`. A
    /// strong reference: the registry holds the call only until then.
    private let registry: CoalescingRegistry
    private let key: CoalescingKey

    /// Creates a call whose first member, ``firstMember``, has `timeout` and leads; `registry`
    /// holds it under `key` until it ends or is abandoned.
    init(_ call: TransportCall, firstMemberTimeout timeout: Duration?, registry: CoalescingRegistry, key: CoalescingKey)
    {
        self.call = call
        self.state = LockedState(State(members: Members(first: Member(timeout: timeout))))
        self.registry = registry
        self.key = key
    }

    /// `request` as a shared call sends it: with ``backstop`` instead of the first member's
    /// timeout, which would end the request for every member at that member's deadline, and
    /// without the first member's redirect observer, whose send may end (cancelled) while the
    /// call goes on for the others.
    static func wireRequest(_ request: TransportRequest) -> TransportRequest {
        var request = request
        request.timeout = backstop
        request.redirectObserver = nil
        return request
    }

    /// The outcome of a call that has finished: what a member told ``Turn/finished`` returns.
    var outcome: TransportCall.Outcome {
        state.withLock { state in
            guard case .finished = state.phase, let outcome = state.outcome else {
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

    /// Puts the call on the wire for `member`, which leads and holds a slot of `admission`, if
    /// any; the slot is released exactly once, when the transport call ends.
    ///
    /// - Returns: `false`, without starting, when `member` no longer leads because it left; the
    ///   caller then frees the slot itself.
    func start(_ member: Int, holding admission: AdmissionController?) -> Bool {
        let waiting = state.withLock { state -> [UnsafeContinuation<Turn, any Error>]? in
            guard case .waitingForSlot = state.phase, state.leader == member, state.members[member] != nil else {
                return nil
            }
            state.phase = .onWire
            state.leader = nil
            state.admission = admission
            // The leader knows it started; every other member is told, now or at its next wait.
            var waiting: [UnsafeContinuation<Turn, any Error>] = []
            state.members.forEach(except: member) { other in
                if let continuation = other.give(.success(.started)) { waiting.append(continuation) }
            }
            return waiting
        }
        guard let waiting else { return false }
        for continuation in waiting { continuation.resume(returning: .started) }
        // The handler captures the call alone, which costs no allocation; the slot is in the state.
        call.start { outcome in self.finish(outcome) }
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
        // The first member's deadline is told to the call itself, which saves an object per send.
        let target: any DeadlineTarget =
            member == Self.firstMember ? self : MemberDeadline(call: self, member: member)
        let token = DeadlineScheduler.shared.schedule(after: timeout, target)
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
            guard let removed = state.members.remove(member) else { return nil }
            var departure = Departure(member: removed, abandoned: state.members.isEmpty)
            if departure.abandoned {
                state.phase = .abandoned
                state.leader = nil
            } else if state.leader == member {
                let next = state.members.earliest
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
            registry.forget(key, self)
            // Frees the slot through `whenDone` if the call was on the wire; a call still waiting
            // for a slot only records that it must never start.
            call.cancel()
        }
    }

    private func finish(_ outcome: TransportCall.Outcome) {
        // The slot is freed first, whatever else happens: the transport call is over.
        let (admission, members) = state.withLock { state -> (AdmissionController?, AllMembers?) in
            let admission = state.admission.take()
            // An abandoned call was cancelled by its last member, who already had its answer.
            guard case .onWire = state.phase else { return (admission, nil) }
            state.phase = .finished
            state.outcome = outcome
            return (admission, state.members.removeAll())
        }
        admission?.release()
        guard let members else { return }
        registry.forget(key, self)
        // Out of the shared state, so each turn is ended here without the lock. A member that is
        // not waiting learns the outcome from the phase at its next wait.
        if var first = members.first { Self.tellFinished(&first) }
        for var member in members.others.values { Self.tellFinished(&member) }
    }

    /// Ends `member`'s wait for the outcome, which it reads from the call.
    private static func tellFinished(_ member: inout Member) {
        guard let ending = member.turn.finish(.success(.finished)) else { return }
        if let deadline = ending.resources { DeadlineScheduler.shared.cancel(deadline) }
        ending.waiter?.resume(returning: .finished)
    }
}

extension SharedTransportCall: DeadlineTarget {
    /// The first member's deadline passed (each other member's is told through a
    /// ``MemberDeadline``).
    func deadlinePassed() {
        deadlinePassed(for: Self.firstMember)
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
