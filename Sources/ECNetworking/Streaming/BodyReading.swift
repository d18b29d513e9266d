import Foundation

/// How a send reads its response body when it does not let the transport gather it: a send that
/// returns a ``ResponseStream``, or one that reports ``TransferProgress``.
package struct BodyReading: Sendable {
    /// Whether the send returns after the head, with the body as a stream.
    var streams: Bool
    /// Who hears of the bytes as they move.
    var progress: TransferProgressHandler?
    /// The request type, so that `cancelAll(of:)` also ends the body of a streamed send.
    var requestType: ObjectIdentifier?
    /// The download the send is, whose body goes to a file; `nil` for another send. Then the body,
    /// not the head, frees the send's ``NetworkConfiguration/maximumConcurrentRequests`` slot
    /// whatever ``NetworkConfiguration/streamsHoldConcurrencySlot`` says (a download's body is the
    /// transfer the limit is there to bound), and the transport hears of it (see
    /// ``TransportRequest/download``).
    var download: Download?

    /// What a download asks of the stream it starts.
    struct Download: Sendable {
        /// The rest of the body a resumed download asks for; `nil` for the whole body.
        var resumption: DownloadResumption?
        /// The folder of the download's file, when it is known before the head.
        var folder: URL?
    }

    /// Set while `download` starts its stream, for that stream alone: `download` reaches the
    /// network through its `stream` requirement, which has no parameter for it. A network reads it
    /// once, on entry, and clears it for whatever its actions send.
    @TaskLocal static var download: Download?
}
