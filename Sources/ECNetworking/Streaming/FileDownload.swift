import Foundation

/// Writes a download's body to its temporary file and moves it into place once whole; when the
/// body breaks part-way, resumes it or keeps what arrived (see ``DownloadOptions``).
struct FileDownload: Sendable {
    /// How many bytes gather before they are handed to the file's queue: one hop per batch rather
    /// than per chunk, while the next batch arrives.
    static let batchSize = 256 * 1024

    /// Where the finished file goes.
    let destination: DownloadDestination
    let options: DownloadOptions
    /// The policy that resumes broken bodies here, the options' resolved against the network's.
    let resumePolicy: RetryPolicy?
    /// Starts the send and returns at its head; the request asks for the rest of the body when a
    /// resumption is set (see ``BodyReading/download``).
    let start: @Sendable (TransferProgressHandler?) async throws -> ResponseStream
    /// The caller's progress handler, which hears of the whole body across resumptions.
    let progress: TransferProgressHandler?

    /// Fails with ``NetworkError/invalidRequest(reason:)`` unless `destination` names a local
    /// file, before anything is sent: only its path would be used, so `https://host/tmp/x` would
    /// write `/tmp/x`. The URL is not in the reason, since it may carry a secret.
    /// A directory at the destination fails the same way, before the transfer rather than at its
    /// end, when the finished file could not replace it; so does a file there that `options` do
    /// not replace, with ``DownloadError/fileExists(_:)``. Missing folders are made when `options`
    /// ask for them.
    static func prepare(_ destination: URL, options: DownloadOptions) throws {
        guard destination.isFileURL else {
            throw NetworkError.invalidRequest(reason: "a download's destination must be a file URL")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw NetworkError.invalidRequest(reason: "a download's destination is a directory, not a file")
            }
            if !options.replacesExistingFile { throw DownloadError.fileExists(destination) }
        }
        if options.createsIntermediateDirectories { try createFolder(destination.deletingLastPathComponent()) }
    }

    /// Makes `folder` and the folders above it that are missing.
    static func createFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw DownloadError.cannotCreateFile(
                folder.appendingPathComponent("download"), errorCode: errorCode(of: error))
        }
    }

    /// The POSIX error code inside a Foundation file error, else `EIO`.
    private static func errorCode(of error: any Error) -> Int32 {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain { return Int32(underlying.code) }
        return EIO
    }

    /// Runs the download, from the partial file of `resumeData` when it can be trusted, else from
    /// the start.
    func run(resumingWith resumeData: ResumeData?) async throws -> DownloadedFile {
        let progress = progress?.forOneSend()
        defer { progress?.finish() }
        // The file and where it goes: known now for a destination named up front (so that a
        // folder that cannot be written fails before anything is sent), else placed at the head.
        var placed: (file: DownloadFile, target: URL)?
        var resumption: DownloadResumption?
        var expectedByteCount: Int64?
        let reopened: DownloadFile.Reopened =
            if let resumeData, DownloadResumption.isUsable(resumeData.validator) {
                await DownloadFile.reopen(resumeData)
            } else {
                .unusable
            }
        if case .file(let partial) = reopened, let resumeData {
            placed = (partial, resumeData.destination)
            resumption = DownloadResumption(offset: resumeData.byteCount, validator: resumeData.validator)
            expectedByteCount = resumeData.expectedByteCount
        } else {
            // A partial file another download is resuming stays its own; this one starts over.
            if case .unusable = reopened { resumeData?.removePartialFile() }
            if let target = destination.fixedURL { placed = (try await DownloadFile.create(beside: target), target) }
        }
        var attempt = 1
        // The request as the network last sent it, which the resume policy is asked about.
        var lastSent: NetworkRequest?
        // What the caller's progress adds to a transfer's counts: the bytes kept from before,
        // until a server answers with the whole body again.
        let progressOffset = LockedState<Int64>(0)
        while true {
            let offset = resumption?.offset ?? 0
            progressOffset.withLock { $0 = offset }
            let stream: ResponseStream
            do {
                // Only a file URL names a folder: of another, only the path would be used, and
                // `.suggestedName(in: https://host/tmp)` would keep the early bytes in `/tmp`. The
                // placed file is beside its target (a partial file too), whose folder is read here
                // rather than the file's own URL: the file was made on its queue and handed over
                // by a continuation, an ordering ThreadSanitizer cannot see (swiftlang/swift#57803).
                let download = BodyReading.Download(
                    resumption: resumption,
                    folder: placed?.target.deletingLastPathComponent()
                        ?? destination.knownFolder.flatMap { $0.isFileURL ? $0 : nil })
                stream = try await BodyReading.$download.withValue(download) {
                    try await start(progress.map { Self.counting($0, from: progressOffset) })
                }
            } catch {
                guard let placed else { throw error }
                if let resumption, let whole = Self.alreadyWhole(error, resumption: resumption) {
                    // The body had ended but for its last word (a chunked body cut before its
                    // final chunk): what was kept is all of it.
                    return try await keepWhole(placed, answeredBy: whole, resumption: resumption)
                }
                if resumption != nil,
                    try await resumesAgain(after: error, sent: lastSent, attempt: &attempt, discarding: placed.file)
                {
                    continue
                }
                throw await failure(
                    error, of: placed.file, at: placed.target, resumption: resumption,
                    expectedByteCount: expectedByteCount)
            }
            let response = stream.response
            lastSent = response.request ?? lastSent
            if let resumption, response.statusCode == 416, let placed {
                // A resume takes a 416 as an answer (see `DownloadResumption.apply(to:acceptingBesides:)`): the send
                // succeeds when it says the body is exactly what was kept, and fails with the
                // download's own error otherwise, reported as the send's end either way.
                return try await finish(stream, answering: resumption, in: placed)
            }
            let (file, target) = try await place(placed, for: stream)
            placed = (file, target)
            var byteCount = offset
            let validator: String?
            // Where a `206`'s body must end: the file then holds the range it names, no more, no less.
            var rangeEnd: Int64?
            if let resumption, response.statusCode == 206 {
                guard resumption.isAnsweredBy(response, expectedByteCount: expectedByteCount) else {
                    let received = response.headers["Content-Range"].flatMap(ContentRange.init)?.first
                    // One that starts where asked but is not the rest of the body (it stops short,
                    // its ETag changed, it is encoded) names no other offset.
                    let error = DownloadError.unexpectedRange(
                        expectedOffset: offset, receivedOffset: received == offset ? nil : received)
                    stream.stop(with: error)
                    await file.discard()
                    throw error
                }
                validator = resumption.validator
                rangeEnd = response.headers["Content-Range"].flatMap(ContentRange.init)?.last.map { $0 + 1 }
            } else if response.statusCode == 206, !Self.askedForPart(response) {
                // A part nobody asked for (from a proxy, or a server that answers every request
                // with a range) is not the file: kept, it would end the download as a success with
                // a file short of the body. One whose range is the whole body is the file.
                guard let length = Self.wholeBodyLength(of: response) else {
                    let received = response.headers["Content-Range"].flatMap(ContentRange.init)?.first
                    let error = DownloadError.unexpectedRange(
                        expectedOffset: 0, receivedOffset: received == 0 ? nil : received)
                    stream.stop(with: error)
                    await file.discard()
                    throw error
                }
                // Not resumable: a later `If-Range` would stand on an answer the server was not
                // asked for.
                validator = nil
                rangeEnd = length
                expectedByteCount = length
            } else {
                // A whole body: the first transfer, or a resume the server answered with the
                // whole (perhaps changed) body.
                if offset > 0 {
                    progressOffset.withLock { $0 = 0 }
                    do {
                        try await file.truncate()
                    } catch {
                        stream.stop(with: error)
                        await file.discard()
                        throw error
                    }
                    byteCount = 0
                }
                validator = response.statusCode == 200 ? DownloadResumption.validator(of: response) : nil
                expectedByteCount = response.headers["Content-Length"].flatMap { Int64($0) }
            }
            do {
                try await write(stream, to: file, counting: &byteCount)
                // A chunked `206` frames itself: a body longer or shorter than its range would
                // splice other bytes onto, or leave a gap at the end of, the file kept.
                if let rangeEnd, byteCount != rangeEnd {
                    throw DownloadError.unexpectedRange(expectedOffset: offset, receivedOffset: nil)
                }
                try await file.finish(
                    movingTo: target, replacing: options.replacesExistingFile, flushing: options.flushesToDisk)
                return DownloadedFile(
                    fileURL: target, response: response, byteCount: byteCount,
                    resumedByteCount: response.statusCode == 206 ? offset : 0)
            } catch {
                guard options.keepsPartialFile, let validator, byteCount > 0, Self.mayResume(after: error) else {
                    await file.discard()
                    throw error
                }
                let next = DownloadResumption(offset: byteCount, validator: validator)
                // A transfer that moved the body on earns a fresh count of attempts: a long body
                // on a link that drops now and then gets there.
                if byteCount > offset { attempt = 1 }
                resumption = next
                if try await resumesAgain(after: error, sent: lastSent, attempt: &attempt, discarding: file) {
                    continue
                }
                throw await failure(
                    error, of: file, at: target, resumption: next, expectedByteCount: expectedByteCount)
            }
        }
    }

    /// Whether the resume policy resumes the download after `error`, the failure of attempt
    /// number `attempt` (a broken body, or the head of a resumption that failed) of `sent`; if
    /// so, after waiting the policy's delay, with `attempt` moved on. Cancelled while it waits,
    /// it removes `file` and throws ``NetworkError/cancelled``.
    private func resumesAgain(
        after error: any Error, sent: NetworkRequest?, attempt: inout Int, discarding file: DownloadFile
    ) async throws -> Bool {
        // The policy asks whether the method may be retried; before any head arrived (a resume
        // whose first request failed), the download's own: a GET.
        guard let resumePolicy, Self.mayResume(after: error),
            resumePolicy.shouldRetry(sent ?? NetworkRequest(url: file.url), after: error, attempt: attempt)
        else { return false }
        do {
            try await Task.sleep(for: resumePolicy.delay(after: attempt, response: nil))
        } catch {
            await file.discard()
            throw NetworkError.cancelled
        }
        attempt += 1
        return true
    }

    /// Whether the request `response` answers asked for part of the body itself: a `Range`
    /// header set by the caller or an action, not by a resumption. A response that does not say
    /// what was sent (from a ``Network`` of your own) is taken as answering a request for the
    /// whole body, so that a part is never kept as the file unasked.
    private static func askedForPart(_ response: NetworkResponse) -> Bool {
        response.request?.headers["Range"] != nil
    }

    /// The length of the body when `response`, a `206`, carries all of it: a `Content-Range` of
    /// `bytes 0-(n-1)/n`, with the body unencoded (the transport would decode an encoded one, and
    /// the bytes written would not be the bytes the range counts); `nil` otherwise, a range whose
    /// complete length is unknown (`bytes 0-99/*`) included.
    private static func wholeBodyLength(of response: NetworkResponse) -> Int64? {
        guard let range = response.headers["Content-Range"].flatMap(ContentRange.init), range.first == 0,
            let last = range.last, let length = range.completeLength, last + 1 == length,
            DownloadResumption.hasIdentityCoding(response)
        else { return nil }
        return length
    }

    /// The most of a `416`'s body a resume reads (and drops) to end its send: an error page's,
    /// as ``NetworkConfiguration/maximumErrorBodySize`` is by default.
    private static let rangeAnswerBodyLimit = 65_536

    /// The download that `stream`, a `416` answering `resumption`, ends: the file kept in `placed`
    /// when the answer says the body is exactly as long as what was kept, once its body is read
    /// (so that the send ends as a success); otherwise
    /// ``DownloadError/rangeNotSatisfiable(completeLength:)``, with the partial file removed and
    /// the body stopped with that error.
    private func finish(
        _ stream: ResponseStream, answering resumption: DownloadResumption, in placed: (file: DownloadFile, target: URL)
    ) async throws -> DownloadedFile {
        let response = stream.response
        guard Self.saysWhole(response, resumption: resumption) else {
            let error = DownloadError.rangeNotSatisfiable(
                completeLength: response.headers["Content-Range"].flatMap(ContentRange.init)?.completeLength)
            stream.stop(with: error)
            await placed.file.discard()
            throw error
        }
        do {
            _ = try await stream.collect(upTo: Self.rangeAnswerBodyLimit)
        } catch {
            await placed.file.discard()
            throw error
        }
        return try await keepWhole(placed, answeredBy: response, resumption: resumption)
    }

    /// The partial file in `placed`, which `response` said is the whole body, moved into place.
    private func keepWhole(
        _ placed: (file: DownloadFile, target: URL), answeredBy response: NetworkResponse,
        resumption: DownloadResumption
    ) async throws -> DownloadedFile {
        try await placed.file.finish(
            movingTo: placed.target, replacing: options.replacesExistingFile, flushing: options.flushesToDisk)
        return DownloadedFile(
            fileURL: placed.target, response: response, byteCount: resumption.offset,
            resumedByteCount: resumption.offset)
    }

    /// Whether `response`, a `416` answering `resumption`, says the body is exactly as long as
    /// what was kept.
    private static func saysWhole(_ response: NetworkResponse, resumption: DownloadResumption) -> Bool {
        response.statusCode == 416
            && response.headers["Content-Range"].flatMap(ContentRange.init)?.completeLength == resumption.offset
    }

    /// The `416` that answered `resumption` when it says the body is exactly as long as what was
    /// kept; `nil` for any other error. (A network of the package takes a `416` as a resume's
    /// answer; another `Network` may fail its send with it.)
    private static func alreadyWhole(_ error: any Error, resumption: DownloadResumption) -> NetworkResponse? {
        guard case .unacceptableStatusCode(let response)? = error as? NetworkError,
            saysWhole(response, resumption: resumption)
        else { return nil }
        return response
    }

    /// The file `stream`'s body goes to: `placed`, or for a destination picked at the head, a new
    /// temporary file beside the file picked. When that fails the transfer is stopped.
    private func place(_ placed: (file: DownloadFile, target: URL)?, for stream: ResponseStream) async throws
        -> (file: DownloadFile, target: URL)
    {
        if let placed { return placed }
        do {
            let target = try destination.pick(stream.response, SuggestedFileName.of(stream.response))
            try Self.prepare(target, options: options)
            return (try await DownloadFile.create(beside: target), target)
        } catch {
            stream.stop(with: error)
            throw error
        }
    }

    /// Writes `stream` into `file`, each chunk where it arrives when the transport can push it,
    /// else a batch at a time, adding what arrives to `byteCount`. On a
    /// failure the body is stopped with the error the caller gets, which its observers hear too,
    /// and the write in flight has ended.
    private func write(_ stream: ResponseStream, to file: DownloadFile, counting byteCount: inout Int64) async throws {
        // Where the transport can, each chunk is written where it arrives (see
        // `ByteStream.push(to:)`): on FoundationNetworking's queue for a `URLSessionTransport`, on
        // `BlockingWorkExecutor` where async-http-client's event loop resumes the read. No hop per
        // chunk, none of the concurrency runtime's threads, and the disk sets the transfer's pace.
        // The gate is closed before the count is read: a chunk the transport was still handing
        // over when the body ended (a timeout, a cancellation) finds it closed and is not
        // written, so the file holds exactly the bytes counted, and a resumption in this process
        // goes on from its end.
        let gate = LockedState<(written: Int64, isClosed: Bool)>((0, false))
        let closeGate = {
            gate.withLock { gate -> Int64 in
                gate.isClosed = true
                return gate.written
            }
        }
        do {
            let isPushed = try await stream.push { chunk in
                try gate.withLock { gate in
                    guard !gate.isClosed else { throw NetworkError.cancelled }
                    try file.writeNow(chunk)
                    gate.written += Int64(chunk.count)
                }
            }
            byteCount += closeGate()
            if isPushed { return }
        } catch {
            // Every byte counted is in the file: what arrived before a break is kept whole.
            byteCount += closeGate()
            throw error
        }
        var batch = Data()
        // The batch being written while the next one arrives; at most one, so memory stays bounded.
        var writing: Task<Void, any Error>?
        do {
            for try await chunk in stream {
                batch.append(chunk)
                guard batch.count >= Self.batchSize else { continue }
                try await writing?.value
                let full = batch
                batch = Data()
                writing = Task { try await file.write(full) }
                // Counted once handed over: a failed write fails the whole download.
                byteCount += Int64(full.count)
            }
            try await writing?.value
            writing = nil
            if !batch.isEmpty {
                try await file.write(batch)
                byteCount += Int64(batch.count)
            }
        } catch {
            stream.stop(with: error)
            // The write in flight ends before the file is kept or removed under it. When it
            // failed, its bytes are not in the file, which is then short of what was counted and
            // cannot be resumed: its failure is the one the caller gets.
            if let writing, case .failure(let writeError) = await writing.result { throw writeError }
            // What arrived before the break is good: kept, it need not be fetched again.
            if !batch.isEmpty, options.keepsPartialFile, Self.mayResume(after: error),
                (try? await file.write(batch)) != nil
            {
                byteCount += Int64(batch.count)
            }
            throw error
        }
    }

    /// The error a download ends with when the body, or the head of a resumption, failed with
    /// `error` and `resumption` is what a resume would ask for: ``DownloadError/resumable(_:cause:)``
    /// with the partial file kept, when it can be; otherwise `error`, with the file removed.
    private func failure(
        _ error: any Error, of file: DownloadFile, at target: URL, resumption: DownloadResumption?,
        expectedByteCount: Int64?
    ) async -> any Error {
        if case .unacceptableStatusCode(let response)? = error as? NetworkError, response.statusCode == 416,
            resumption != nil
        {
            await file.discard()
            let complete = response.headers["Content-Range"].flatMap(ContentRange.init)?.completeLength
            return DownloadError.rangeNotSatisfiable(completeLength: complete)
        }
        guard options.keepsPartialFile, let resumption, Self.mayResume(after: error), let kept = await file.keep()
        else {
            await file.discard()
            return error
        }
        let resumeData = ResumeData(
            destination: target, partialFileURL: kept, byteCount: resumption.offset,
            expectedByteCount: expectedByteCount, validator: resumption.validator)
        return DownloadError.resumable(resumeData, cause: error)
    }

    /// Whether a body that failed with `error` is worth resuming: it broke (the connection, a
    /// stall, a server error), rather than being cancelled, refused as too large, or failing on
    /// the disk.
    private static func mayResume(after error: any Error) -> Bool {
        switch error as? NetworkError {
        case .transport?, .timedOut?, .retriesExhausted?: true
        // A status that may pass (a timeout, a limit, a server error), not one that says the body
        // is gone or refused (401, 403, 404, 410).
        case .unacceptableStatusCode(let response)?:
            response.statusCode == 408 || response.statusCode == 429 || response.statusCode >= 500
        default: false
        }
    }

    /// `handler`, told of the body's bytes as counted from `offset`: a resumed body's progress
    /// goes on from what the partial file holds.
    /// It cannot finish `handler`: only the download's end does, not each transfer's. `offset`
    /// is read at each report, since a server may answer a resume with the whole body.
    private static func counting(_ handler: TransferProgressHandler, from offset: LockedState<Int64>)
        -> TransferProgressHandler
    {
        TransferProgressHandler { progress in
            let offset = offset.withLock { $0 }
            guard progress.direction == .download else { return handler.report(progress) }
            handler.report(
                TransferProgress(
                    direction: .download, completedByteCount: progress.completedByteCount + offset,
                    expectedByteCount: progress.expectedByteCount.map { $0 + offset }))
        }
    }
}
