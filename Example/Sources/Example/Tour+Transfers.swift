import DemoClient
import DemoServer
import ECNetworking
import Foundation

extension Tour {
    /// Step 10: a photo uploaded from a file as a multipart form, with progress; a live
    /// Server-Sent Events stream whose connection drops and resumes with `Last-Event-ID`; a file
    /// downloaded to disk with progress; and a download the server drops halfway, resumed.
    func transfers() async throws {
        console.step(10, "Upload a photo with progress, follow live events, download a file, resume a broken one")
        try await withScratchDirectory { directory in
            try await uploadPhoto(in: directory)
            try await followLiveEvents()
            try await downloadFile(into: directory)
        }
    }

    /// Runs `body` with a new directory of the tour's own, removed afterwards.
    func withScratchDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ECNetworkingTour-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    /// A 4 MiB "photo" and a caption as `multipart/form-data`; the server reads the form part by
    /// part and answers with what it found, checked against the file.
    private func uploadPhoto(in directory: URL) async throws {
        let photo = LargeFileContent.prefix(4 * 1_048_576)
        let photoURL = directory.appendingPathComponent("sunset.jpg")
        try photo.write(to: photoURL)
        var form = MultipartFormData()
        form.append("Sunset over the bay", name: "caption")
        form.append(fileAt: photoURL, name: "photo", contentType: "image/jpeg")

        let request = FormUploadRequest(form: form)
        let (receipt, milestones) = try await showingProgress { [client] progress in
            try await client.network.send(request, progress: progress)
        }

        for part in receipt.parts {
            let file = part.fileName.map { " \($0), \(part.contentType ?? "untyped")," } ?? ""
            let value = part.value.map { " \"\($0)\"" } ?? ""
            console.result("server read part \(part.name):\(file)\(value) \(part.byteCount) bytes")
        }
        let readPhoto = receipt.part(named: "photo")
        try TourFailure.check(
            readPhoto?.byteCount == photo.count && readPhoto?.checksum == CRC32.checksum(of: photo),
            "the server read the photo as \(String(describing: readPhoto)), not the \(photo.count) bytes sent")
        try TourFailure.check(
            receipt.part(named: "caption")?.value == "Sunset over the bay", "the caption did not arrive as sent")
        let uploaded = milestones.reports(.upload).last
        try TourFailure.check(
            uploaded?.fractionCompleted == 1 && (uploaded?.completedByteCount ?? 0) > Int64(photo.count),
            "the upload progress did not reach the whole form: \(String(describing: uploaded))")
        try TourFailure.check(
            milestones.reports(.download).last?.fractionCompleted == 1, "no download progress reached the end")
        console.passed("sent with upload progress; the server's receipt matches the file byte for byte (CRC-32)")
    }

    /// Four events, the connection dropped by the server after the second: the subscription
    /// reconnects after the server's `retry`, sending `Last-Event-ID`, and the server resumes.
    private func followLiveEvents() async throws {
        let request = TickEventsRequest(count: 4, intervalMilliseconds: 150, retryMilliseconds: 100, dropAfter: 2)
        // Three seconds unless the server says otherwise; it says 100 ms.
        let reconnection = ServerSentEventReconnection(delay: .seconds(3), maximumConsecutiveFailures: 2)
        let path = request.buildRequest(with: baseURL).url.path
        let start = ContinuousClock.now
        var received: [ServerSentEvent] = []
        for try await event in client.network.serverSentEvents(request, reconnection: reconnection) {
            received.append(event)
            let retry = event.retry.map { ", retry \(TourConsole.format($0))" } ?? ""
            let data = event.data.replacingOccurrences(of: "\n", with: " ⏎ ")
            console.result(
                "\(TourConsole.format(ContinuousClock.now - start)): event \(event.event) id \(event.id ?? "none")"
                    + "\(retry): \(data)")
            // A server that ignored Last-Event-ID would replay the first events for ever.
            if event.event == "done" || received.count == 8 { break }
        }

        let connections = events.events(path: path).filter { $0.stage == .began }
        let resumedFrom = connections.dropFirst().map { $0.headers["Last-Event-ID"] ?? "none" }
        console.result("\(connections.count) connections; the reconnection sent Last-Event-ID: \(resumedFrom)")
        try TourFailure.check(
            received.map(\.id) == ["1", "2", "3", "4"], "expected events 1 to 4 once each, got \(received.map(\.id))")
        try TourFailure.check(
            connections.count == 2 && resumedFrom == ["2"],
            "expected one reconnection with Last-Event-ID 2, saw \(connections.count) connections, \(resumedFrom)")
        console.passed("the stream resumed after event 2 with nothing lost or repeated, 100 ms after the drop")
    }

    /// 8 MiB the server generates as it sends, written to a file as they arrive.
    private func downloadFile(into directory: URL) async throws {
        let byteCount = 8 * 1_048_576
        let destination = directory.appendingPathComponent("large.bin")
        let (file, milestones) = try await showingProgress { [client] progress in
            try await client.network.download(BigDownloadRequest(bytes: byteCount), to: destination, progress: progress)
        }

        let leftBehind = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0 != "large.bin" && $0 != "sunset.jpg" }
        console.result("\(file.byteCount) bytes in \(file.fileURL.lastPathComponent)")
        try TourFailure.check(
            try Data(contentsOf: destination) == LargeFileContent.prefix(byteCount),
            "the downloaded file differs from what the server sent")
        try TourFailure.check(leftBehind.isEmpty, "the download left \(leftBehind) behind")
        try TourFailure.check(
            milestones.reports(.download).last?.completedByteCount == Int64(byteCount),
            "the download progress did not reach \(byteCount) bytes")
        console.passed("written to disk as it arrived, byte for byte, with no temporary file left beside it")
        try await resumeBrokenDownload(into: directory)
    }

    /// 4 MiB whose first transfer the server drops halfway; the download keeps what arrived and
    /// fetches only the rest, with `Range` and `If-Range`.
    private func resumeBrokenDownload(into directory: URL) async throws {
        let byteCount = 4 * 1_048_576
        let destination = directory.appendingPathComponent("resumed.bin")
        let request = BigDownloadRequest(bytes: byteCount, failAfter: byteCount / 2)
        let kept: ResumeData
        do {
            _ = try await client.network.download(
                request, to: destination, options: DownloadOptions(resumption: .never))
            throw TourFailure("the download the server drops halfway succeeded")
        } catch DownloadError.resumable(let resumeData, _) {
            kept = resumeData
        }
        console.result("the server dropped the transfer: \(kept.byteCount) of \(byteCount) bytes kept to resume")
        let file = try await client.network.download(request, resumingWith: kept)
        console.result("resumed from byte \(file.resumedByteCount) with status \(file.response.statusCode)")
        try TourFailure.check(
            try Data(contentsOf: destination) == LargeFileContent.prefix(byteCount),
            "the resumed file differs from what the server sent")
        try TourFailure.check(
            file.response.statusCode == 206 && file.resumedByteCount == kept.byteCount,
            "the download did not resume where it broke")
        console.passed("only the missing half was sent again, and the file is whole")
    }

    /// Runs `transfer` with a progress handler, printing a line at each milestone as the reports
    /// come, and returns its value with every report.
    private func showingProgress<Value: Sendable>(
        _ transfer: @escaping @Sendable (TransferProgressHandler) async throws -> Value
    ) async throws -> (value: Value, milestones: ProgressMilestones) {
        var milestones = ProgressMilestones()
        let (updates, handler) = TransferProgressHandler.makeStream(bufferingPolicy: .unbounded)
        // The updates finish when the send ends, so the loop ends with the transfer.
        async let value = transfer(handler)
        for await progress in updates {
            if let line = milestones.line(for: progress) { console.result(line) }
        }
        return (try await value, milestones)
    }
}
