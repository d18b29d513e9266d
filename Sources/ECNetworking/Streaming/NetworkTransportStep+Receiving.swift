import Foundation

extension NetworkTransportStep {
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
        // Set only when there is something to set: the first write copies the fields the wire
        // request still shares.
        if let progress = reading.progress { transportRequest.uploadProgress = progress }
        if let download = reading.download {
            transportRequest.download = TransportRequest.Download(folder: download.folder)
        }
        var response = try await TransportCall.send(
            transportRequest, on: network.route, collectingBody: false, cancellation: cancellation)
        guard let bytes = response.bodyOnTheWire.take() else { return response }
        // From here on the relay owns the body: it alone reads, times and ends it.
        let body = StreamedBody(BodyRelay(bytes))
        let acceptable = wire.request.acceptableStatusCodes ?? network.configuration.acceptableStatusCodes
        let isAcceptable = acceptable.contains(response.statusCode)
        let keepsStreaming = reading.streams && isAcceptable
        let releasesSlotAtEnd =
            keepsStreaming && holdsSlot
            && (network.configuration.streamsHoldConcurrencySlot || reading.download != nil)
        if releasesSlotAtEnd { holdsSlot = false }
        // `cancelAll` reaches the body through a cancellation of its own, since the send's ends
        // when the head is returned.
        let bodyCancellation = SendCancellation()
        let registration = network.activeSends.register(reading.requestType, cancellation: bodyCancellation)
        let activeSends = network.activeSends
        let admission = network.admission
        body.relay.configure(
            idleTimeout: wire.request.customProperties[StreamIdleTimeout.self]
                ?? network.configuration.streamIdleTimeout,
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
            // The send's own cancellation ends the read, as it ends every wait of the send.
            let link = cancellation?.addHandler { relay.stop(with: NetworkError.cancelled) }
            defer { cancellation?.removeHandler(link) }
            let stream = ResponseStream(response: response, body: body)
            response.body =
                isAcceptable
                ? try await stream.collect()
                : try await stream.collectPrefix(network.configuration.maximumErrorBodySize)
            return response
        }
        response.unreadBody = body
        return response
    }
}
