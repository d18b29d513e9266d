import Foundation

extension HTTPNetwork {
    /// Sends `request` and returns once its head has arrived and passed every stage, with the
    /// body still streaming; see ``ResponseStream``.
    public func stream<R: Request>(
        _ request: R, priority: RequestPriority, progress: TransferProgressHandler?
    ) async throws -> ResponseStream {
        let built = try request.networkRequest(baseURL: configuration.baseURL)
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
            download.resumption?.apply(to: &request, acceptingBesides: configuration.acceptableStatusCodes)
            return try await BodyReading.$download.withValue(nil) {
                try await stream(
                    request, requestType: requestType, priority: priority, progress: progress, download: download)
            }
        }
        return try await stream(
            request, requestType: requestType, priority: priority, progress: progress, download: nil)
    }

    private func stream(
        _ request: NetworkRequest, requestType: ObjectIdentifier?, priority: RequestPriority,
        progress: TransferProgressHandler?, download: BodyReading.Download?
    ) async throws -> ResponseStream {
        do {
            return try await runner.send(
                request, registration: .registeredIn(activeSends), as: requestType, priority: priority,
                reading: BodyReading(
                    streams: true, progress: progress, requestType: requestType, download: download),
                through: { NetworkTransportStep(network: self) }
            ) { response, context in
                var response = response
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
}
