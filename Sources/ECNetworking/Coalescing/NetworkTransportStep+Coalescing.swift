import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkTransportStep {
    /// Sends `wire` by joining the identical call in progress, or by leading a new one.
    ///
    /// Only the member that leads takes a concurrency slot, held until the wire call ends; the
    /// others wait without one. Every member runs its own began actions once the call is on the
    /// wire (the log line then says it joined), and keeps its own deadline, measured
    /// from then, and its own cancellation: when either ends a member, the call goes on for the
    /// others, and it is cancelled when the last one leaves.
    func sendCoalesced(
        _ wire: WireRequest,
        key: CoalescingKey,
        priority: RequestPriority,
        stages: ActionStages,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        let queueStart = SendClock.now
        let (call, member) = network.coalescing.join(key, timeout: wire.timeout) {
            TransportCall(SharedTransportCall.wireRequest(wire.transportRequest), on: network.route)
        }
        var transportStart: SendMoment?
        // The member that made the call knows it leads; every other one waits to be told.
        var decidedTurn: SharedTransportCall.Turn? = member == SharedTransportCall.firstMember ? .lead : nil
        do {
            while true {
                let turn: SharedTransportCall.Turn
                if let decided = decidedTurn {
                    turn = decided
                    decidedTurn = nil
                } else {
                    turn = try await call.wait(member)
                }
                switch turn {
                case .lead:
                    // A send cancelled before it leads never puts the call on the wire.
                    try SendCancellation.checkCancellation()
                    if let admission = network.admission { try await admission.acquire(priority: priority) }
                    guard call.start(member, holding: network.admission) else {
                        // It left (its task was cancelled) while taking the slot; another member leads now.
                        network.admission?.release()
                        throw NetworkError.cancelled
                    }
                    transportStart = context.begin(wire.request, stages: stages, queuedSince: queueStart)
                case .started:
                    transportStart = context.begin(joining(wire), stages: stages, queuedSince: queueStart)
                case .finished:
                    // A member that joined just before the call ended still tells its began actions.
                    let start =
                        transportStart
                        ?? context.begin(joining(wire), stages: stages, queuedSince: queueStart)
                    context.endTransport(startedAt: start)
                    return try call.outcome.get()
                }
            }
        } catch {
            call.leave(member)
            throw error
        }
    }

    /// The request a member's began actions see when it joined a call another member started.
    private func joining(_ wire: WireRequest) -> NetworkRequest {
        var request = wire.request
        request.customProperties[JoinedIdenticalRequest.self] = true
        return request
    }
}
