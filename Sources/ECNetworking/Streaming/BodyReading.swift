/// How a send reads its response body when it does not let the transport gather it: a send that
/// returns a ``ResponseStream``, or one that reports ``TransferProgress``.
struct BodyReading: Sendable {
    /// Whether the send returns after the head, with the body as a stream.
    var streams: Bool
    /// Who hears of the bytes as they move.
    var progress: TransferProgressHandler?
    /// The request type, so that `cancelAll(of:)` also ends the body of a streamed send.
    var requestType: ObjectIdentifier?
    /// Whether the body, not the head, frees the send's ``NetworkConfiguration/maximumConcurrentRequests``
    /// slot whatever ``NetworkConfiguration/streamsHoldConcurrencySlot`` says: a download's body
    /// is the transfer the limit is there to bound.
    var holdsSlotUntilBodyEnds = false

    /// Whether the stream the current task asks for is a download's (see ``holdsSlotUntilBodyEnds``):
    /// `download` reaches the network through its `stream` requirement, which has no parameter
    /// for it.
    @TaskLocal static var isDownloading = false
}
