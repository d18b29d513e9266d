import Foundation

/// A multipart body encoded for one send: the bytes, or the temporary file it was written to,
/// kept in the send's ``SendContext`` so that a retry sends the same encoding instead of writing
/// the body again, and removed with the context when the send ends.
///
/// Encoded after the send has its concurrency slot, so sends waiting in the queue hold no file, and
/// on a queue of its own, since writing a large body blocks on the disk: never on the concurrency
/// runtime's threads, which every task of the process shares.
final class EncodedMultipartBody: Sendable {
    /// The form as encoded, to tell whether a later attempt sends the same one.
    let form: MultipartFormData
    /// The body as the transport sends it.
    let body: TransportRequestBody
    /// The file `body` is read from, when the form was too large for memory; removed when the
    /// last reference goes.
    let temporaryFile: TemporaryFile?

    private init(form: MultipartFormData, body: TransportRequestBody, temporaryFile: TemporaryFile?) {
        self.form = form
        self.body = body
        self.temporaryFile = temporaryFile
    }

    /// Where forms are encoded: concurrent, so one large form does not hold up another.
    private static let queue = DispatchQueue(label: "ECNetworking.multipart-encoding", attributes: .concurrent)

    /// Encodes `form` on the encoding queue. A cancellation of the calling task or of its send
    /// stops the writing between chunks, and is waited for: whatever the outcome, no file is left
    /// behind once this returns or throws.
    ///
    /// - Throws: What ``MultipartFormData/transportBody(isCancelled:)`` throws;
    ///   ``NetworkError/cancelled`` when cancelled.
    static func encode(_ form: MultipartFormData) async throws -> EncodedMultipartBody {
        let cancelled = LockedState(false)
        let encoded = try await SendCancellation.withCancellationHandler {
            if SendCancellation.isCancelled { cancelled.withLock { $0 = true } }
            return try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(
                        with: Result {
                            let (body, file) = try form.transportBody(isCancelled: { cancelled.withLock { $0 } })
                            return EncodedMultipartBody(form: form, body: body, temporaryFile: file)
                        })
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
        // Encoded whole just as the send was cancelled: its file goes with it, before this throws.
        if cancelled.withLock({ $0 }) { throw NetworkError.cancelled }
        return encoded
    }
}

extension MultipartFormData {
    /// Whether `other` encodes to the same body: the same boundary, threshold and parts, a file
    /// part by its URL. A retry starts from the request as built, so its form is normally the very
    /// same; a will-begin action that changed it gets a new encoding.
    func encodesLike(_ other: MultipartFormData) -> Bool {
        boundary == other.boundary && memoryThreshold == other.memoryThreshold
            && sendsExtendedFileNames == other.sendsExtendedFileNames && parts.count == other.parts.count
            && zip(parts, other.parts).allSatisfy { $0.encodesLike($1) }
    }
}

extension MultipartPart {
    /// Whether `other` has the same headers and the same source.
    fileprivate func encodesLike(_ other: MultipartPart) -> Bool {
        guard name == other.name, fileName == other.fileName, contentType == other.contentType,
            headers == other.headers
        else { return false }
        switch (source, other.source) {
        case (.data(let data), .data(let otherData)): return data == otherData
        case (.file(let url), .file(let otherURL)): return url == otherURL
        default: return false
        }
    }
}
