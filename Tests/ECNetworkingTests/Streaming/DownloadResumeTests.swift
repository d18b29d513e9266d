import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// Downloads whose body breaks part-way, over every transport, against a server that serves byte
/// ranges: what arrived is kept, private, and the rest is fetched with `Range` and `If-Range`;
/// a body that changed starts over; a wrong answer to a resume fails typed.
@Suite("Downloads that break and resume", .timeLimit(.minutes(2)))
final class DownloadResumeTests: Sendable {
    private let directory: URL
    private static let body = Data((0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
    private static let breakAt = 250_000

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The test's folder goes with it, whatever the test left there.
    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private var folderContents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
    }

    /// A head declaring the whole `body` with `headers`, then the first `count` bytes of it, then
    /// an orderly close: a connection lost part-way.
    private static func broken(_ body: Data, after count: Int, headers: [String: String]) -> LoopbackHTTPServer.Reply {
        var head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        var bytes = Data((head + "\r\n").utf8)
        bytes.append(body.prefix(count))
        return .raw(bytes)
    }

    /// The rest of `body` from the offset a `Range: bytes=N-` asks for, as a `206`.
    private static func rest(of body: Data, for request: LoopbackHTTPServer.ReceivedRequest, etag: String)
        -> LoopbackHTTPServer.Reply
    {
        guard let range = request.header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
            let offset = Int(range.dropFirst(6).dropLast()), offset < body.count
        else { return .response(status: 400) }
        return .response(
            status: 206,
            headers: ["Content-Range": "bytes \(offset)-\(body.count - 1)/\(body.count)", "ETag": etag],
            body: body.suffix(from: offset))
    }

    /// A server whose first `breaks` answers break part-way (the first after ``breakAt`` bytes,
    /// each later one, a `206`, 100,000 bytes into its range) and whose later ones serve the range
    /// asked for while `If-Range` names `"v1"`, else the whole body.
    private static func rangeServer(breaks: Int = 1, validator: [String: String] = ["ETag": "\"v1\""]) throws
        -> LoopbackHTTPServer
    {
        let answered = Counter()
        return try LoopbackHTTPServer { request in
            let number = answered.increment()
            let ranged = request.header("If-Range") == "\"v1\""
            if number <= breaks, !ranged { return broken(body, after: breakAt, headers: validator) }
            guard ranged else { return .response(status: 200, headers: validator, body: body) }
            let whole = rest(of: body, for: request, etag: "\"v1\"")
            guard number <= breaks, case .response(_, let headers, let remainder) = whole else { return whole }
            var head = "HTTP/1.1 206 Partial Content\r\nContent-Length: \(remainder.count)\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            var bytes = Data((head + "\r\n").utf8)
            bytes.append(remainder.prefix(100_000))
            return .raw(bytes)
        }
    }

    private func request(on server: LoopbackHTTPServer) -> NetworkRequest {
        NetworkRequest(url: server.baseURL.appendingPathComponent("file.bin"))
    }

    /// The resume data of a download that broke, or a recorded issue.
    private func brokenDownload(
        _ network: URLSessionNetwork, on server: LoopbackHTTPServer, to destination: URL,
        options: DownloadOptions = DownloadOptions(resumption: .never)
    ) async -> ResumeData? {
        do {
            _ = try await network.download(request(on: server), to: destination, options: options)
            Issue.record("the broken download succeeded")
        } catch DownloadError.resumable(let resumeData, let cause) {
            guard case .transport? = cause as? NetworkError else {
                Issue.record("expected a transport error as the cause, got \(cause)")
                return nil
            }
            return resumeData
        } catch {
            Issue.record("expected DownloadError.resumable, got \(error)")
        }
        return nil
    }

    @Test(
        "a body that breaks is kept, private, and resumed where it stopped with Range and If-Range",
        arguments: TransportKind.allCases)
    func resumes(_ kind: TransportKind) async throws {
        let server = try Self.rangeServer()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            guard let resumeData = await brokenDownload(network, on: server, to: destination) else { return }
            #expect(resumeData.byteCount > 0 && resumeData.byteCount <= Int64(Self.breakAt))
            #expect(resumeData.expectedByteCount == Int64(Self.body.count))
            #expect(resumeData.validator == "\"v1\"")
            #expect(resumeData.destination == destination)
            #expect(folderContents == [resumeData.partialFileURL.lastPathComponent])
            #expect(resumeData.partialFileURL.pathExtension == "partial")
            let permissions =
                try FileManager.default.attributesOfItem(atPath: resumeData.partialFileURL.path)[.posixPermissions]
                as? Int
            #expect(permissions == 0o600)
            #expect(network.activeRequestCount == 0)

            let file = try await network.download(request(on: server), resumingWith: resumeData)
            #expect(file.response.statusCode == 206)
            #expect(file.resumedByteCount == resumeData.byteCount)
            #expect(file.byteCount == Int64(Self.body.count))
        }
        #expect(try Data(contentsOf: destination) == Self.body)
        #expect(folderContents == ["file.bin"])
        let resumed = server.requests.last
        #expect(server.requests.count == 2)
        #expect(resumed?.header("If-Range") == "\"v1\"")
        #expect(resumed?.header("Range")?.hasPrefix("bytes=") == true)
    }

    @Test("a resume answered with the whole body, which changed, starts over and keeps the new body")
    func changedBodyStartsOver() async throws {
        let changed = Data(repeating: 7, count: 300_000)
        let answered = Counter()
        let server = try LoopbackHTTPServer { _ in
            answered.increment() == 1
                ? Self.broken(Self.body, after: Self.breakAt, headers: ["ETag": "\"v1\""])
                // If-Range names a body that is gone: the whole new one, as RFC 9110 says.
                : .response(status: 200, headers: ["ETag": "\"v2\""], body: changed)
        }
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            guard let resumeData = await brokenDownload(network, on: server, to: destination) else { return }
            let file = try await network.download(request(on: server), resumingWith: resumeData)
            #expect(file.response.statusCode == 200)
            #expect(file.resumedByteCount == 0)
            #expect(file.byteCount == Int64(changed.count))
        }
        #expect(try Data(contentsOf: destination) == changed)
        #expect(folderContents == ["file.bin"])
    }

    @Test("a 206 whose ETag changed, or whose range starts elsewhere, fails typed and drops the partial file")
    func wrongPartialAnswers() async throws {
        for answer in ["etag", "offset", "missing", "short"] {
            let answered = Counter()
            let server = try LoopbackHTTPServer { request in
                guard answered.increment() > 1 else {
                    return Self.broken(Self.body, after: Self.breakAt, headers: ["ETag": "\"v1\""])
                }
                return switch answer {
                case "etag": Self.rest(of: Self.body, for: request, etag: "\"v2\"")
                case "offset":
                    .response(
                        status: 206, headers: ["Content-Range": "bytes 0-9/\(Self.body.count)"],
                        body: Self.body.prefix(10))
                case "short":
                    // Less than the open range asked for: the file would end short.
                    Self.shortRange(for: request)
                default: .response(status: 206, body: Self.body.suffix(10))
                }
            }
            defer { server.stop() }
            let destination = directory.appendingPathComponent("\(answer).bin")
            try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
                guard let resumeData = await brokenDownload(network, on: server, to: destination) else { return }
                do {
                    _ = try await network.download(request(on: server), resumingWith: resumeData)
                    Issue.record("\(answer): the wrong answer was accepted")
                } catch DownloadError.unexpectedRange(let expected, let received) {
                    #expect(expected == resumeData.byteCount)
                    // Another offset is named; a range that starts where asked but is not the
                    // rest of the body, or none, names none.
                    let expectedReceived: Int64? = answer == "offset" ? 0 : nil
                    #expect(received == expectedReceived)
                } catch {
                    Issue.record("\(answer): expected unexpectedRange, got \(error)")
                }
                #expect(!FileManager.default.fileExists(atPath: resumeData.partialFileURL.path))
            }
            #expect(!FileManager.default.fileExists(atPath: destination.path))
        }
    }

    /// Ten bytes from the offset asked for, as a `206` that says so: less than the open range.
    private static func shortRange(for request: LoopbackHTTPServer.ReceivedRequest) -> LoopbackHTTPServer.Reply {
        let offset = Int(request.header("Range")?.dropFirst("bytes=".count).dropLast() ?? "") ?? 0
        return .response(
            status: 206,
            headers: ["Content-Range": "bytes \(offset)-\(offset + 9)/\(body.count)", "ETag": "\"v1\""],
            body: body.subdata(in: offset..<offset + 10))
    }

    @Test("a resume whose first request fails with a 503 is resumed again by the policy; a 404 drops the file")
    func resumptionHeadFails() async throws {
        for status in [503, 404] {
            let answered = Counter()
            let server = try LoopbackHTTPServer { request in
                switch answered.increment() {
                case 1: Self.broken(Self.body, after: Self.breakAt, headers: ["ETag": "\"v1\""])
                case 2: .response(status: status)
                default: Self.rest(of: Self.body, for: request, etag: "\"v1\"")
                }
            }
            defer { server.stop() }
            let destination = directory.appendingPathComponent("\(status).bin")
            let options = DownloadOptions(
                resumption: .policy(RetryPolicy(maximumAttempts: 4, baseDelay: .milliseconds(10), jitter: 0)))
            try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
                do {
                    let file = try await network.download(request(on: server), to: destination, options: options)
                    #expect(status == 503, "a 404 was resumed past")
                    #expect(file.resumedByteCount > 0)
                } catch NetworkError.unacceptableStatusCode(let response) {
                    #expect(status == 404 && response.statusCode == 404, "a \(status) ended the download")
                }
            }
            if status == 503 {
                #expect(try Data(contentsOf: destination) == Self.body)
            } else {
                #expect(!folderContents.contains { $0.hasPrefix(".404.bin") }, "\(folderContents)")
            }
        }
    }

    @Test("a 416 saying the body is exactly what was kept finishes the file (a chunked body cut before its end)")
    func alreadyWhole() async throws {
        let answered = Counter()
        let server = try LoopbackHTTPServer { _ in
            guard answered.increment() == 1 else {
                return .response(status: 416, headers: ["Content-Range": "bytes */\(Self.body.count)"])
            }
            var bytes = Data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nETag: \"v1\"\r\n\r\n".utf8)
            bytes.append(Data("\(String(Self.body.count, radix: 16))\r\n".utf8))
            bytes.append(Self.body)
            // The final zero-length chunk never comes.
            bytes.append(Data("\r\n".utf8))
            return .raw(bytes)
        }
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        let ends = SendEnds()
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL, configure: ends.observe) { network in
            guard let resumeData = await brokenDownload(network, on: server, to: destination) else { return }
            #expect(resumeData.byteCount == Int64(Self.body.count))
            network.add(action: ends)
            ends.startCounting()
            let file = try await network.download(request(on: server), resumingWith: resumeData)
            #expect(file.byteCount == Int64(Self.body.count))
        }
        #expect(try Data(contentsOf: destination) == Self.body)
        #expect(folderContents == ["file.bin"])
        // The resume succeeded: no failure for the failure actions or the metrics hook.
        try await waitUntil { ends.counted.count == 1 }
        #expect(ends.failures.all.isEmpty, "\(ends.failures.all)")
        #expect(ends.counted.first?.error == nil)
    }

    @Test(
        "a 206 whose chunked body is longer or shorter than its range, or whose open range stops short of the first answer's length, fails with unexpectedRange and keeps nothing",
        arguments: TransportKind.allCases, [50_000, -100_000, 0])
    func wrongLengthRange(kind: TransportKind, excess: Int) async throws {
        let answered = Counter()
        let server = try LoopbackHTTPServer { request in
            guard answered.increment() > 1 else {
                return Self.broken(Self.body, after: Self.breakAt, headers: ["ETag": "\"v1\""])
            }
            // From where the first transfer really broke, which a loaded machine may put before
            // `breakAt`: the range names the bytes the client asked for.
            guard let range = request.header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
                let offset = Int(range.dropFirst(6).dropLast())
            else { return .response(status: 400) }
            let rest = Self.body.dropFirst(offset)
            // `excess` 0: an open range, with the right bytes for it, that ends 100,000 bytes early.
            let named =
                excess == 0
                ? "bytes \(offset)-\(Self.body.count - 100_001)/*"
                : "bytes \(offset)-\(Self.body.count - 1)/\(Self.body.count)"
            let sent =
                excess == 0
                ? Data(rest.dropLast(100_000))
                : excess > 0 ? Data(rest) + Data(count: excess) : Data(rest.dropLast(-excess))
            var bytes = Data(
                ("HTTP/1.1 206 Partial Content\r\nTransfer-Encoding: chunked\r\nETag: \"v1\"\r\n"
                    + "Content-Range: \(named)\r\nConnection: close\r\n\r\n").utf8)
            bytes.append(Data("\(String(sent.count, radix: 16))\r\n".utf8) + sent + Data("\r\n0\r\n\r\n".utf8))
            return .raw(bytes)
        }
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            guard let resumeData = await brokenDownload(network, on: server, to: destination) else { return }
            do {
                let file = try await network.download(request(on: server), resumingWith: resumeData)
                Issue.record("the resume succeeded with \(file.byteCount) bytes for a body of \(Self.body.count)")
            } catch DownloadError.unexpectedRange(let expected, nil) {
                #expect(expected == resumeData.byteCount)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(folderContents.isEmpty, "\(folderContents)")
    }

    @Test("a partial file another download is resuming is left to it: this one starts over beside it")
    func partialFileInUse() async throws {
        let server = try Self.rangeServer()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            guard let resumeData = await brokenDownload(network, on: server, to: destination) else { return }
            let held = open(resumeData.partialFileURL.path, O_RDONLY)
            defer { close(held) }
            #expect(flock(held, LOCK_EX | LOCK_NB) == 0)

            resumeData.removePartialFile()
            let file = try await network.download(request(on: server), resumingWith: resumeData)

            #expect(file.resumedByteCount == 0)
            #expect(FileManager.default.fileExists(atPath: resumeData.partialFileURL.path))
        }
        #expect(try Data(contentsOf: destination) == Self.body)
    }

    @Test("a 416 fails with rangeNotSatisfiable, names the length, and drops the partial file")
    func rangeNotSatisfiable() async throws {
        let answered = Counter()
        let server = try LoopbackHTTPServer { _ in
            answered.increment() == 1
                ? Self.broken(Self.body, after: Self.breakAt, headers: ["ETag": "\"v1\""])
                : .response(status: 416, headers: ["Content-Range": "bytes */1000"])
        }
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        let ends = SendEnds()
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL, configure: ends.observe) { network in
            guard let resumeData = await brokenDownload(network, on: server, to: destination) else { return }
            network.add(action: ends)
            ends.startCounting()
            do {
                _ = try await network.download(request(on: server), resumingWith: resumeData)
                Issue.record("the 416 was accepted")
            } catch DownloadError.rangeNotSatisfiable(let length) {
                #expect(length == 1000)
            }
        }
        #expect(folderContents == [])
        // One failed send, reported once, with the error the caller got.
        try await waitUntil { ends.counted.count == 1 }
        #expect(ends.failures.all.count == 1)
        if case DownloadError.rangeNotSatisfiable? = ends.failures.all.first {
        } else {
            Issue.record("failure actions got \(ends.failures.all)")
        }
        #expect(ends.counted.first?.error != nil)
    }

    @Test(
        "a policy resumes a body that breaks twice without the caller seeing it, and progress goes on from what was kept",
        arguments: TransportKind.allCases)
    func automaticResumption(_ kind: TransportKind) async throws {
        let server = try Self.rangeServer(breaks: 2)
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        let reports = LockedState([TransferProgress]())
        let progress = TransferProgressHandler { progress in reports.withLock { $0.append(progress) } }
        let options = DownloadOptions(
            resumption: .policy(RetryPolicy(maximumAttempts: 3, baseDelay: .milliseconds(10), jitter: 0)))
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            let file = try await network.download(
                request(on: server), to: destination, options: options, progress: progress)
            #expect(file.byteCount == Int64(Self.body.count))
            #expect(file.resumedByteCount > 0)
        }
        #expect(try Data(contentsOf: destination) == Self.body)
        #expect(server.requests.count == 3)
        #expect(server.requests.dropFirst().allSatisfy { $0.header("If-Range") == "\"v1\"" })
        let downloads = reports.withLock { $0 }.filter { $0.direction == .download }
        #expect(downloads.last?.completedByteCount == Int64(Self.body.count))
        #expect(downloads.last?.expectedByteCount == Int64(Self.body.count))
        #expect(zip(downloads, downloads.dropFirst()).allSatisfy { $0.completedByteCount < $1.completedByteCount })
    }

    @Test("the network's retry policy resumes by default; .never leaves it to the caller")
    func networkRetryPolicy() async throws {
        for resumption in [DownloadOptions.Resumption.networkRetryPolicy, .never] {
            let server = try Self.rangeServer()
            defer { server.stop() }
            try await TransportKind.urlSession.withNetwork(
                baseURL: server.baseURL,
                configure: { $0.retryPolicy = RetryPolicy(baseDelay: .milliseconds(10), jitter: 0) }
            ) { network in
                let destination = directory.appendingPathComponent("file.bin")
                let options = DownloadOptions(resumption: resumption)
                if case .never = resumption {
                    let resumeData = await brokenDownload(network, on: server, to: destination, options: options)
                    #expect(resumeData != nil)
                    #expect(server.requests.count == 1)
                } else {
                    let file = try await network.download(request(on: server), to: destination, options: options)
                    #expect(file.resumedByteCount > 0)
                    #expect(server.requests.count == 2)
                }
            }
        }
    }

    @Test(
        "a body without a strong validator, or that refuses ranges, is not kept: the send's error, no file",
        arguments: [[:], ["ETag": "W/\"v1\""], ["ETag": "\"v1\"", "Accept-Ranges": "none"]])
    func notResumable(_ headers: [String: String]) async throws {
        let server = try LoopbackHTTPServer { _ in Self.broken(Self.body, after: Self.breakAt, headers: headers) }
        defer { server.stop() }
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            let error = await networkError {
                _ = try await network.download(request(on: server), to: directory.appendingPathComponent("f.bin"))
            }
            guard case .transport? = error else {
                Issue.record("expected the transport error, got \(String(describing: error))")
                return
            }
        }
        #expect(folderContents == [])
    }

    @Test("keepsPartialFile = false removes what arrived and throws the send's error")
    func notKept() async throws {
        let server = try Self.rangeServer()
        defer { server.stop() }
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            let error = await networkError {
                _ = try await network.download(
                    request(on: server), to: directory.appendingPathComponent("f.bin"),
                    options: DownloadOptions(keepsPartialFile: false, resumption: .never))
            }
            guard case .transport? = error else {
                Issue.record("expected the transport error, got \(String(describing: error))")
                return
            }
        }
        #expect(folderContents == [])
    }

    @Test("resume data whose partial file is gone starts over, without a Range")
    func partialFileGone() async throws {
        let server = try Self.rangeServer()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            guard let resumeData = await brokenDownload(network, on: server, to: destination) else { return }
            try FileManager.default.removeItem(at: resumeData.partialFileURL)
            let file = try await network.download(request(on: server), resumingWith: resumeData)
            #expect(file.resumedByteCount == 0)
        }
        #expect(server.requests.last?.header("Range") == nil)
        #expect(try Data(contentsOf: destination) == Self.body)
    }

    @Test("resume data edited to name another file never opens, cuts or removes it")
    func editedResumeData() async throws {
        let server = try Self.rangeServer()
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        let precious = directory.appendingPathComponent("precious.txt")
        try Data("keep me".utf8).write(to: precious)
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            guard let genuine = await brokenDownload(network, on: server, to: destination) else { return }
            genuine.removePartialFile()
            // Stored resume data, edited: another file of the folder, and a line break in the validator.
            var json = String(decoding: try JSONEncoder().encode(genuine), as: UTF8.self)
            json = json.replacingOccurrences(of: genuine.partialFileURL.lastPathComponent, with: "precious.txt")
            let edited = try JSONDecoder().decode(ResumeData.self, from: Data(json.utf8))
            #expect(edited.partialFileURL.lastPathComponent == "precious.txt")
            edited.removePartialFile()
            let file = try await network.download(request(on: server), resumingWith: edited)
            #expect(file.resumedByteCount == 0)
        }
        #expect(try Data(contentsOf: precious) == Data("keep me".utf8))
        #expect(try Data(contentsOf: destination) == Self.body)
        #expect(server.requests.last?.header("Range") == nil)
    }

    @Test("a temporary file a dead process left is removed by the next download there; live, new and kept ones are not")
    func abandonedFilesRemoved() async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Self.body) }
        defer { server.stop() }
        let destination = directory.appendingPathComponent("file.bin")
        func leftover(_ name: String, minutesOld: Double) throws -> URL {
            let url = directory.appendingPathComponent(name)
            try Data("left".utf8).write(to: url)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -minutesOld * 60)], ofItemAtPath: url.path)
            return url
        }
        let abandoned = try leftover(".file.bin.\(UUID().uuidString).download", minutesOld: 5)
        let fresh = try leftover(".file.bin.\(UUID().uuidString).download", minutesOld: 0)
        let kept = try leftover(".file.bin.\(UUID().uuidString).partial", minutesOld: 60)
        let otherDestination = try leftover(".other.bin.\(UUID().uuidString).download", minutesOld: 5)
        let live = try leftover(".file.bin.\(UUID().uuidString).download", minutesOld: 5)
        // A download in progress elsewhere holds its file's lock.
        let liveDescriptor = open(live.path, O_RDONLY)
        defer { close(liveDescriptor) }
        #expect(flock(liveDescriptor, LOCK_EX | LOCK_NB) == 0)

        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            _ = try await network.download(request(on: server), to: destination)
        }

        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        for survivor in [fresh, kept, otherDestination, live] {
            #expect(FileManager.default.fileExists(atPath: survivor.path), "\(survivor.lastPathComponent) was removed")
        }
        #expect(try Data(contentsOf: destination) == Self.body)
    }

    @Test("resume data and its error hold no part of the request: no planted token in a description, dump or JSON")
    func noSecretInResumeData() async throws {
        let server = try Self.rangeServer()
        defer { server.stop() }
        let secret = "RESUME-SECRET-\(UUID().uuidString)"
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            var request = request(on: server)
            request.queryItems = [URLQueryItem(name: "access_token", value: secret)]
            request.headers["Authorization"] = "Bearer \(secret)"
            do {
                _ = try await network.download(
                    request, to: directory.appendingPathComponent("file.bin"),
                    options: DownloadOptions(resumption: .never))
                Issue.record("the broken download succeeded")
            } catch {
                var dumped = ""
                dump(error, to: &dumped)
                guard case DownloadError.resumable(let resumeData, _) = error else {
                    Issue.record("expected resumable, got \(error)")
                    return
                }
                let json = String(decoding: try JSONEncoder().encode(resumeData), as: UTF8.self)
                for text in [
                    "\(error)", String(reflecting: error), error.localizedDescription, dumped, json, "\(resumeData)",
                ] {
                    #expect(!text.contains(secret))
                }
                resumeData.removePartialFile()
            }
        }
        #expect(folderContents == [])
    }
}

/// What a network's failure actions (once added) and metrics hook heard of its sends.
private final class SendEnds: RequestFailedAction, Sendable {
    let failures = Log<any Error>()
    let metrics = Log<RequestMetrics>()
    private let start = LockedState(0)

    func requestFailed(_ request: NetworkRequest, error: any Error) {
        failures.append(error)
    }

    /// Sets the configuration's metrics hook to note each send's metrics.
    func observe(_ configuration: inout NetworkConfiguration) {
        configuration.metricsHandler = { [metrics] in metrics.append($0) }
    }

    /// Counts the metrics of the sends from now on only.
    func startCounting() {
        let count = metrics.all.count
        start.withLock { $0 = count }
    }

    /// The metrics of the sends since ``startCounting()``.
    var counted: [RequestMetrics] {
        Array(metrics.all.dropFirst(start.withLock { $0 }))
    }
}
