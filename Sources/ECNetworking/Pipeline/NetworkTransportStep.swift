import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real network's transport step, which the ``StageRunner`` runs at every attempt: encodes
/// the request for the wire, joins an identical call in progress or waits for a concurrency slot,
/// tells the began actions, and puts the request on the wire through ``TransportCall``.
struct NetworkTransportStep: AttemptTransport {
    // The network's stored properties are read through it, never through computed properties of
    // this step: a computed `configuration` would hand out a copy of the whole configuration at
    // each use.
    let network: HTTPNetwork

    /// Encodes, waits for a slot, tells the began actions, and sends; the slot is freed as soon as
    /// the transport is done, so slow completed actions do not hold it. With coalescing on, an
    /// identical GET in progress is joined instead, without a slot (see `sendCoalesced`).
    // Inlined into the runner's stages and run on their executor: no async frame and no executor
    // switch of its own on every attempt.
    @inline(__always) nonisolated(nonsending) func transmit(
        _ request: NetworkRequest,
        priority: RequestPriority,
        stages: ActionStages,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        // Encoded before the queue, since identical requests are found by what goes on the wire;
        // all but a multipart form, which never joins another request and waits for its slot.
        var wire = try WireRequest(request, configuration: network.configuration)
        if !context.observations.isEmpty {
            // Each redirect hop is a physical request of its own to the integrations.
            wire.transportRequest.redirectObserver = ObservedRedirects(
                observations: context.observations, attempt: request.customProperties[SendAttempt.self]?.number ?? 0)
        }
        context.request = wire.request
        var response: NetworkResponse
        // A streamed body, or one whose progress is reported, is read here, never shared.
        if context.bodyReading == nil, network.configuration.coalescesIdenticalRequests, let key = CoalescingKey(wire) {
            response = try await sendCoalesced(wire, key: key, priority: priority, stages: stages, context: &context)
        } else {
            // Without a limit nothing waits for a slot, so the clock is not read for the wait.
            var queueStart = network.admission != nil ? SendClock.now : nil
            if let admission = network.admission { try await admission.acquire(priority: priority) }
            var holdsSlot = network.admission != nil
            defer { if holdsSlot { network.admission?.release() } }
            if let form = wire.pendingMultipart {
                // Once per send, and only now: a retry sends the encoding its first attempt made,
                // and a send waiting for its slot holds no temporary file.
                let encodingStart = SendClock.now
                wire.attach(try await context.encodedMultipart(form))
                // The queue wait is the time spent waiting for the slot, not encoding.
                queueStart = queueStart.map { $0 + (SendClock.now - encodingStart) }
            }
            let transportStart = context.begin(wire.request, stages: stages, queuedSince: queueStart)
            if let reading = context.bodyReading {
                response = try await receive(
                    wire, reading: reading, cancellation: context.cancellation, holdsSlot: &holdsSlot)
            } else {
                response = try await TransportCall.send(
                    wire.transportRequest, on: network.route, startedAt: transportStart,
                    cancellation: context.cancellation)
            }
            context.endTransport(startedAt: transportStart)
        }
        if response.sentStoredCookies { context.sentStoredCookies = true }
        response.request = wire.request
        response.timings = context.timings
        return response
    }
}
