import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPNetwork {
    /// Runs `request` through the ``StageRunner`` as a registered send of `requestType` (see
    /// ``StageRunner/run(_:registeredIn:as:priority:through:context:)``), with the network's
    /// transport.
    // Inlined into each send and run on the caller's executor: no async frame of its own, and the
    // `inout` context passes without an executor switch.
    @inline(__always) nonisolated(nonsending) func perform(
        _ request: NetworkRequest,
        requestType: ObjectIdentifier?,
        priority: RequestPriority,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        // Authentication lets a login sent from inside a refresh leave the queue first.
        try await runner.run(
            request, registeredIn: activeSends, as: requestType, priority: RefreshMarker.priority(for: priority),
            through: { SessionAttemptTransport(network: self) }, context: &context)
    }

    /// Encodes, waits for a slot, tells the began actions, and sends; the slot is freed as soon as
    /// the transport is done, so slow completed actions do not hold it. With coalescing on, an
    /// identical GET in progress is joined instead, without a slot (see `sendCoalesced`).
    // Inlined into the runner's transport step and run on its executor, as the stages are: no
    // async frame and no executor switch of its own on every attempt.
    @inline(__always) nonisolated(nonsending) fileprivate func transmit(
        _ request: NetworkRequest,
        priority: RequestPriority,
        stages: ActionStages,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        // Encoded before the queue, since identical requests are found by what goes on the wire;
        // all but a multipart form, which never joins another request and waits for its slot.
        var wire = try WireRequest(request, configuration: configuration)
        if !context.observations.isEmpty {
            // Each redirect hop is a physical request of its own to the integrations.
            wire.transportRequest.redirectObserver = ObservedRedirects(
                observations: context.observations, attempt: request.customProperties[SendAttempt.self]?.number ?? 0)
        }
        context.request = wire.request
        var response: NetworkResponse
        // A streamed body, or one whose progress is reported, is read here, never shared.
        if context.bodyReading == nil,
            let key = CoalescingKey(wire, isEnabled: configuration.coalescesIdenticalRequests)
        {
            response = try await sendCoalesced(wire, key: key, priority: priority, stages: stages, context: &context)
        } else {
            // Without a limit nothing waits for a slot, so the clock is not read for the wait.
            var queueStart = admission != nil ? SendClock.now : nil
            if let admission { try await admission.acquire(priority: priority) }
            var holdsSlot = admission != nil
            defer { if holdsSlot { admission?.release() } }
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
                response = try await TransportCall.send(wire.transportRequest, on: route, startedAt: transportStart)
            }
            context.endTransport(startedAt: transportStart)
        }
        response.request = wire.request
        response.timings = context.timings
        return response
    }
}

/// The real network's transport step: the transport, through admission or a joined identical call.
private struct SessionAttemptTransport: AttemptTransport {
    let network: HTTPNetwork

    // On the runner's executor, as `AttemptTransport` requires, so the `inout` context stays put;
    // inlined into the runner's specialized stages, so this forwarding costs no async frame.
    @inline(__always) nonisolated(nonsending) func transmit(
        _ request: NetworkRequest,
        priority: RequestPriority,
        stages: ActionStages,
        context: inout SendContext
    ) async throws -> NetworkResponse {
        try await network.transmit(request, priority: priority, stages: stages, context: &context)
    }
}
