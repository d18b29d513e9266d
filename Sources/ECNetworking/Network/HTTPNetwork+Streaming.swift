import Foundation

extension HTTPNetwork {
    /// Sends `request` and returns once its head has arrived and passed every stage, with the
    /// body still streaming; see ``ResponseStream``.
    public func stream<R: Request>(
        _ request: R, priority: RequestPriority, progress: TransferProgressHandler?
    ) async throws -> ResponseStream {
        let built = try buildRequest(request)
        return try await stream(built, requestType: ObjectIdentifier(R.self), priority: priority, progress: progress)
    }

    /// Sends a raw request and returns once its head has arrived and passed every stage, with the
    /// body still streaming; see ``ResponseStream``.
    public func stream(
        _ request: NetworkRequest, priority: RequestPriority, progress: TransferProgressHandler?
    ) async throws -> ResponseStream {
        try await stream(request, requestType: nil, priority: priority, progress: progress)
    }

    private func stream(
        _ request: NetworkRequest, requestType: ObjectIdentifier?, priority: RequestPriority,
        progress: TransferProgressHandler?
    ) async throws -> ResponseStream {
        let progress = progress?.forOneSend()
        // Read once, for this send alone: what its actions send is not the download.
        if let download = BodyReading.download {
            var request = request
            download.resumption?.apply(to: &request)
            return try await BodyReading.$download.withValue(nil) {
                try await stream(
                    request, requestType: requestType, priority: priority, progress: progress, isDownload: true)
            }
        }
        return try await stream(
            request, requestType: requestType, priority: priority, progress: progress, isDownload: false)
    }

    private func stream(
        _ request: NetworkRequest, requestType: ObjectIdentifier?, priority: RequestPriority,
        progress: TransferProgressHandler?, isDownload: Bool
    ) async throws -> ResponseStream {
        do {
            return try await runner.reportingMetrics(of: request) { context in
                context.bodyReading = BodyReading(
                    streams: true, progress: progress, requestType: requestType, holdsSlotUntilBodyEnds: isDownload)
                var response = try await perform(
                    request, requestType: requestType, priority: priority, context: &context)
                guard let body = response.unreadBody else {
                    // A response an action replaced has no body on the wire: its own body is the stream.
                    return ResponseStream(completeResponse: response)
                }
                response.unreadBody = nil
                // The send is reported when the body ends (see `StageRunner.reportingMetrics`),
                // with this head's status: every observer, the failure log included, hears of a
                // body that breaks.
                context.response = response
                context.streamedBody = body.relay
                if let progress { body.relay.whenEnded { _ in progress.finish() } }
                return ResponseStream(response: response, body: body)
            }
        } catch {
            progress?.finish()
            throw error
        }
    }

    /// The request `request` builds, with its own custom properties.
    func buildRequest<R: Request>(_ request: R) throws -> NetworkRequest {
        var built = try request.buildRequest(with: configuration.baseURL)
        built.customProperties.merge(request.customProperties)
        // Noted now, while nothing else shares the request's storage, so that the first attempt
        // finds it there and need not copy the request to note it (see `StageRunner.runStages`).
        built.customProperties[NetworkBaseURL.self] = configuration.baseURL
        return built
    }

    /// Puts `wire` on the wire and returns at its head, for a send that reads the body itself
    /// (see ``BodyReading``): the body stays in the response's `unreadBody`, behind a relay that
    /// applies the idle timeout, counts progress and answers `cancelAll`, unless the send does not
    /// stream or the status is not acceptable. Then the body is read at once, so the completed
    /// actions and the error see it: whole for an acceptable status, and for another no more than
    /// `maximumErrorBodySize` bytes, uncounted, the transfer stopped there.
    ///
    /// - Parameter holdsSlot: Set to `false` when the body's end, not the caller, frees the slot.
    func receive(
        _ wire: WireRequest, reading: BodyReading, cancellation: SendCancellation?, holdsSlot: inout Bool
    ) async throws -> NetworkResponse {
        var transportRequest = wire.transportRequest
        transportRequest.uploadProgress = reading.progress
        var response = try await TransportCall.send(transportRequest, on: route, collectingBody: false)
        guard let body = response.unreadBody else { return response }
        let acceptable = wire.request.acceptableStatusCodes ?? configuration.acceptableStatusCodes
        let isAcceptable = acceptable.contains(response.statusCode)
        let keepsStreaming = reading.streams && isAcceptable
        let releasesSlotAtEnd =
            keepsStreaming && holdsSlot && (configuration.streamsHoldConcurrencySlot || reading.holdsSlotUntilBodyEnds)
        if releasesSlotAtEnd { holdsSlot = false }
        // `cancelAll` reaches the body through a cancellation of its own, since the send's ends
        // when the head is returned.
        let bodyCancellation = SendCancellation()
        let registration = activeSends.register(reading.requestType, cancellation: bodyCancellation)
        let activeSends = activeSends
        let admission = admission
        body.relay.configure(
            idleTimeout: wire.request.customProperties[StreamIdleTimeout.self] ?? configuration.streamIdleTimeout,
            // An error page is no part of the transfer: progress counts only the body asked for.
            progress: isAcceptable
                ? reading.progress.map { DownloadProgressCounter(handler: $0, headers: response.headers) } : nil,
            onEnd: { _ in
                activeSends.unregister(registration)
                if releasesSlotAtEnd { admission?.release() }
            })
        // The relay, not the stream's hold on it: holding that would keep the stream from ever
        // being let go.
        let relay = body.relay
        if bodyCancellation.addHandler({ relay.stop(with: NetworkError.cancelled) }) == nil {
            relay.stop(with: NetworkError.cancelled)
        }
        guard keepsStreaming else {
            response.unreadBody = nil
            // The send's own cancellation ends the read, as it ends every wait of the send.
            let link = cancellation?.addHandler { relay.stop(with: NetworkError.cancelled) }
            defer { cancellation?.removeHandler(link) }
            let stream = ResponseStream(response: response, body: body)
            response.body =
                isAcceptable
                ? try await stream.collect() : try await stream.collectPrefix(configuration.maximumErrorBodySize)
            return response
        }
        return response
    }
}
