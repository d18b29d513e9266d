#if os(Linux)
    import Foundation
    import TestSupport
    import Testing

    @testable import ECNetworking

    /// A file body on a real socket, where FoundationNetworking's own file reader broke what each
    /// transport promises for it: cancelling an upload to a server that had stopped reading it
    /// stopped the process (and libcurl sending the request again on a fresh connection sent no
    /// body, which KeptAliveResendTests.swift checks). So on Linux ``URLSessionTransport`` reads the file itself (``OwnedRequestBody``); these
    /// run over every transport, as the promises are the same.
    @Suite("A file body on the wire", .timeLimit(.minutes(3)))
    struct FileBodyUploadTests {
        static let transportVariable = "ECNETWORKING_CANCELLED_UPLOAD_TRANSPORT"
        /// Where the child writes that it got through every cancellation, so that a child that ran
        /// nothing (a filter that no longer matches) does not pass for one that survived.
        static let reportVariable = "ECNETWORKING_CANCELLED_UPLOAD_REPORT"

        /// The ways to end a send in progress.
        enum Ending: CaseIterable {
            case taskCancelled, cancelAll, invalidate
        }

        /// A sparse file of `size` bytes in a folder of its own.
        private static func makeFile(size: Int) throws -> URL {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("FileBodyUploadTests-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("upload.bin")
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
            return file
        }

        @Test(
            "a file upload cancelled while the server has stopped reading it ends with cancelled, and the process goes on",
            arguments: TransportKind.allCases)
        func cancelledWhileServerStoppedReading(_ kind: TransportKind) async throws {
            // In a child process: FoundationNetworking's own file reader stopped the process here
            // ("'try!' expression unexpectedly raised an error: Error Domain=libcurl.Easy Code=43").
            let report = FileManager.default.temporaryDirectory.appendingPathComponent("cancelled-upload-\(UUID())")
            defer { try? FileManager.default.removeItem(at: report) }
            let child = try await ChildTestProcess.run(
                test: "FileBodyUploadTests/cancelledUploadsInChild",
                environment: [
                    Self.transportVariable: kind.rawValue, Self.reportVariable: report.path,
                    // The backtrace of a stop, were there one, is of no use here.
                    "SWIFT_BACKTRACE": "enable=no",
                ],
                timeout: .seconds(150))
            #expect(child.reason == .exit, "\(kind): the process was stopped: \(child.standardError)")
            #expect(child.status == 0, "\(kind): \(child.standardError)")
            #expect(FileManager.default.fileExists(atPath: report.path), "\(kind): the child did not get through")
        }

        /// Cancels a file upload ten times each way; runs only in the child process
        /// ``cancelledWhileServerStoppedReading(_:)`` starts.
        @Test(.enabled(if: ProcessInfo.processInfo.environment[transportVariable] != nil, "runs in a child process"))
        func cancelledUploadsInChild() async throws {
            let kind = try #require(
                ProcessInfo.processInfo.environment[Self.transportVariable].flatMap(TransportKind.init(rawValue:)))
            let file = try Self.makeFile(size: 8 * TransportTestRoutes.megabyte)
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            for ending in Ending.allCases {
                for _ in 1...10 {
                    let error = try await Self.cancelUpload(of: file, over: kind, ending)
                    guard case .cancelled? = error else {
                        Issue.record("\(ending): expected cancelled, got \(String(describing: error))")
                        continue
                    }
                }
            }
            // FoundationNetworking's own file reader stopped the process when its read finished,
            // after the transfer had gone: the process lives on a while to show it does not.
            try await Task.sleep(for: .milliseconds(500))
            let report = try #require(ProcessInfo.processInfo.environment[Self.reportVariable])
            #expect(FileManager.default.createFile(atPath: report, contents: Data("survived".utf8)))
        }

        /// Sends `file` to a server that stops reading 64 KiB in, then ends the send by `ending`.
        private static func cancelUpload(
            of file: URL, over kind: TransportKind, _ ending: Ending
        ) async throws -> NetworkError? {
            let server = try UploadDrainServer(pauseAfter: 64 * 1_024)
            defer { server.stop() }
            return try await kind.withNetwork(baseURL: server.baseURL) { network in
                let request = NetworkRequest(
                    method: .put, url: server.baseURL.appendingPathComponent("upload"), body: .file(at: file))
                let send = Task { try await network.send(request) }
                try await waitUntil { server.isPaused }
                switch ending {
                case .taskCancelled: send.cancel()
                case .cancelAll: network.cancelAll()
                case .invalidate: network.invalidate()
                }
                return await networkError { _ = try await send.value }
            }
        }

        static let memoryTransportVariable = "ECNETWORKING_FILE_UPLOAD_MEMORY_TRANSPORT"
        static let memoryOutputVariable = "ECNETWORKING_FILE_UPLOAD_MEMORY_OUTPUT"

        /// The bar is far below the file, so a transport that held it, or any sizeable part of
        /// it, fails; alone the growth is 1 to 10 MiB. It leaves room for glibc's per-thread heaps:
        /// FoundationNetworking allocates each chunk's buffer on whichever dispatch thread runs its
        /// queue, and with four such uploads at once on two cores the growth reached 42 MiB for
        /// 1 GiB and 25 MiB for 4 GiB (not growing with the file), and stayed under 12 MiB with
        /// `MALLOC_ARENA_MAX=1`.
        @Test(
            "a 1 GiB file goes out whole, with its Content-Length, and peak memory grows by at most 64 MiB",
            .enabled(if: ProcessMemory.isMeasurable, "peak resident memory is read from /proc"),
            .enabled(if: !ProcessMemory.isUnderSanitizer, "the plain test run measures memory"),
            .serialized,
            arguments: TransportKind.allCases)
        func gibibyteUpload(_ kind: TransportKind) async throws {
            let (baseline, peak) = try await ProcessMemory.measureInChildProcess(
                test: "FileBodyUploadTests/gibibyteUploadInChild",
                environment: [Self.memoryTransportVariable: kind.rawValue],
                outputVariable: Self.memoryOutputVariable, timeout: .seconds(150))
            #expect(
                peak - baseline <= 64 * 1_048_576, "\(kind): peak grew by \(Double(peak - baseline) / 1_048_576) MiB")
        }

        /// Uploads a sparse 1 GiB file; runs only in the child process ``gibibyteUpload(_:)`` starts.
        @Test(
            .enabled(if: ProcessInfo.processInfo.environment[memoryTransportVariable] != nil, "runs in a child process")
        )
        func gibibyteUploadInChild() async throws {
            let environment = ProcessInfo.processInfo.environment
            let kind = try #require(environment[Self.memoryTransportVariable].flatMap(TransportKind.init(rawValue:)))
            let output = try #require(environment[Self.memoryOutputVariable])
            let size = 1_024 * TransportTestRoutes.megabyte
            let file = try Self.makeFile(size: size)
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let server = try UploadDrainServer(pauseAfter: .max, answersWhenComplete: true)
            defer { server.stop() }
            let measurement = try await kind.withNetwork(baseURL: server.baseURL) { network in
                let url = server.baseURL.appendingPathComponent("upload")
                // Connections, threads and the transport's buffers exist before the baseline.
                _ = try await network.send(NetworkRequest(method: .put, url: url, body: .data(Data(count: 1_024))))
                let baseline = ProcessMemory.resetPeak()
                let response = try await network.send(NetworkRequest(method: .put, url: url, body: .file(at: file)))
                #expect(response.statusCode == 204)
                return "\(baseline) \(ProcessMemory.peak())"
            }
            #expect(server.requestHeaders.last?["content-length"] == String(size))
            #expect(server.requestHeaders.last?["transfer-encoding"] == nil)
            #expect(server.bodyByteCount == size + 1_024)
            try measurement.write(toFile: output, atomically: true, encoding: .utf8)
        }
    }
#endif
