import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    /// Downloads over `URLSessionTransport` on Linux whose head a response-began action holds while
    /// the body arrives, which FoundationNetworking cannot pause. Serialized: each test's action
    /// blocks one of the concurrency runtime's threads (a response-began action is synchronous)
    /// until the server has written its body, and two at once would hold both threads of a 2-core
    /// machine, stalling every other test of the process (under ThreadSanitizer, downloads in other
    /// tests then ran past their 60 s deadline).
    @Suite("Downloads whose head is held while the body arrives", .serialized, .timeLimit(.minutes(2)))
    final class DownloadHeldHeadTests: Sendable {
        private let directory: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        /// The test's folder goes with it, whatever the test left there.
        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        /// The names in the download folder, to show that nothing is left behind.
        private var folderContents: [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
        }

        /// What arrives before the download takes over, while the send's stages look at the head, is
        /// kept for it over `URLSessionTransport` on Linux (which cannot pause the transfer), however
        /// much, in a spill file in the download's own folder: the spill limit is for a reader that
        /// fell behind, and the download writes every one of those bytes there anyway, while the
        /// transport's spill folder is often memory. Here a response-began action holds the head until
        /// the server has written a 32 MiB body: the kernel's loopback buffers hold a few MiB of it, so
        /// most has reached the transport, far past the 1 MiB in memory and the 4 MiB spill limit.
        /// Before, the download failed with `readerFellBehind` (as it did on a busy machine without
        /// the action's wait).
        @Test("a download whose head is held while the body arrives keeps it in its own folder, past the spill limit")
        func heldHeadIsNotLimited() async throws {
            let spillFolder = directory.appendingPathComponent("spill")
            try FileManager.default.createDirectory(at: spillFolder, withIntermediateDirectories: true)
            let (network, transport, server) = try heldHeadNetwork(spillFolder: spillFolder)
            defer {
                transport.invalidate()
                server.stop()
            }
            let destination = directory.appendingPathComponent("held.bin")
            let file = try await network.download(
                NetworkRequest(url: server.baseURL.appendingPathComponent("held")), to: destination)
            #expect(file.byteCount == Int64(Self.heldBody.count))
            #expect(try Data(contentsOf: destination) == Self.heldBody)
            let spills = server.spillsSeen.all.flatMap { $0 }
            #expect(spills.contains { $0.hasPrefix(directory.path + "/ECNetworking-body-") }, "\(spills)")
            #expect(!spills.contains { $0.hasPrefix(spillFolder.path) }, "\(spills)")
        }

        /// A destination chosen from the head has no folder before it: what arrives before the
        /// download takes over goes where a slow reader's bytes go, up to the transport's spill limit
        /// (documented in the Linux notes).
        @Test("a download to a destination chosen from the head keeps the spill limit while its head is held")
        func heldHeadOfChosenDestinationIsLimited() async throws {
            let (network, transport, server) = try heldHeadNetwork(spillFolder: nil)
            defer {
                transport.invalidate()
                server.stop()
            }
            let destination = directory.appendingPathComponent("chosen.bin")
            let error = await networkError {
                _ = try await network.download(
                    NetworkRequest(url: server.baseURL.appendingPathComponent("held")),
                    to: .chosen { _, _ in destination })
            }
            guard case .readerFellBehind(let limit)? = error else {
                Issue.record("expected readerFellBehind, got \(String(describing: error))")
                return
            }
            #expect(limit == 4 * 1_048_576)
            #expect(folderContents.isEmpty)
        }

        /// The spill file a held head made in the download's folder is closed once the download has
        /// taken its bytes over, and is never seen in the folder: only the finished file is there.
        @Test("a download whose head was held leaves no spill file open and only its file in its folder")
        func heldHeadLeavesNothing() async throws {
            let (network, transport, server) = try heldHeadNetwork(spillFolder: nil)
            defer {
                transport.invalidate()
                server.stop()
            }
            let destination = directory.appendingPathComponent("held.bin")
            _ = try await network.download(
                NetworkRequest(url: server.baseURL.appendingPathComponent("held")), to: destination)
            let spillPrefix = directory.path + "/ECNetworking-body-"
            #expect(server.spillsSeen.all.flatMap { $0 }.contains { $0.hasPrefix(spillPrefix) })
            #expect(!openFilePaths().contains { $0.hasPrefix(spillPrefix) }, "the spill file is closed")
            #expect(folderContents == ["held.bin"])
        }

        /// A download cancelled while its head is held, its early bytes in a spill file in its
        /// folder, closes that file and leaves nothing in the folder.
        @Test("a download cancelled while its head is held leaves no spill file open and nothing in its folder")
        func heldHeadCancelled() async throws {
            let server = try HeldBodyServer(body: Self.heldBody)
            let transport = URLSessionTransport(configuration: .ephemeral, maximumSpillSize: 4 * 1_048_576)
            let network = URLSessionNetwork(
                configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            // The action cancels its own task once the body is written: nothing waits on another
            // task while it holds one of the runtime's threads.
            network.add(
                action: HeadGate(
                    gate: server.gate, holdsUntil: server.written, spillsSeen: server.spillsSeen,
                    cancelsItsTask: true))
            defer {
                transport.invalidate()
                server.stop()
            }
            let spillPrefix = directory.path + "/ECNetworking-body-"
            let error = await networkError {
                _ = try await network.download(
                    NetworkRequest(url: server.baseURL.appendingPathComponent("held")),
                    to: directory.appendingPathComponent("cancelled.bin"))
            }
            #expect(error?.isCancellation == true, "got \(String(describing: error))")
            let spills = server.spillsSeen.all.flatMap { $0 }
            #expect(spills.contains { $0.hasPrefix(spillPrefix) }, "\(spills)")
            try await waitUntil { !openFilePaths().contains { $0.hasPrefix(spillPrefix) } }
            #expect(folderContents.isEmpty)
        }

        /// A folder that is not a file URL names no folder to keep a download's early bytes in: only
        /// its path would be used, so `https://host/tmp` would put the spill file in `/tmp`.
        @Test("a suggested-name folder that is not a file URL gets no spill file at its path")
        func nonFileFolderGetsNoSpill() async throws {
            let (network, transport, server) = try heldHeadNetwork(spillFolder: nil)
            defer {
                transport.invalidate()
                server.stop()
            }
            let folder = URL(string: "https://127.0.0.1\(directory.path)")!
            let error = await networkError {
                _ = try await network.download(
                    NetworkRequest(url: server.baseURL.appendingPathComponent("held")), to: .suggestedName(in: folder))
            }
            guard case .invalidRequest? = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            let spills = server.spillsSeen.all.flatMap { $0 }
            #expect(!spills.contains { $0.hasPrefix(directory.path + "/") }, "\(spills)")
            #expect(folderContents.isEmpty)
        }

        /// 32 MiB, far past the 1 MiB kept in memory and the 4 MiB spill limit of ``heldHeadNetwork(spillFolder:)``.
        private static let heldBody = steppedBytes(count: 32 * TransportTestRoutes.megabyte, every: 5)

        /// A network over `URLSessionTransport` with a 4 MiB spill limit, whose response-began action
        /// lets the server send ``heldBody`` and holds the head until the server has written it,
        /// noting then the spill files the process has open.
        private func heldHeadNetwork(
            spillFolder: URL?
        ) throws -> (URLSessionNetwork, URLSessionTransport, HeldBodyServer) {
            let server = try HeldBodyServer(body: Self.heldBody)
            let transport = URLSessionTransport(
                configuration: .ephemeral, spillDirectory: spillFolder, maximumSpillSize: 4 * 1_048_576)
            let network = URLSessionNetwork(
                configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
            network.add(action: HeadGate(gate: server.gate, holdsUntil: server.written, spillsSeen: server.spillsSeen))
            return (network, transport, server)
        }
    }
#endif

/// Lets the server send the body once the network has the head; with `holdsUntil`, keeps the
/// head until the server has written the body (or 30 s), and notes in `spillsSeen` the spill
/// files open then.
struct HeadGate: ResponseBeganAction {
    let gate: DispatchSemaphore
    var holdsUntil: DispatchSemaphore?
    var spillsSeen: Log<[String]>?
    /// Whether the action then cancels the task it runs in, the download's.
    var cancelsItsTask = false

    func responseBegan(request: NetworkRequest, response: NetworkResponse) {
        gate.signal()
        // Blocking one of the runtime's threads: a test's action, for the body's write alone.
        guard let holdsUntil else { return }
        _ = holdsUntil.wait(timeout: .now() + 30)
        spillsSeen?.append(openFilePaths().filter { $0.contains("/ECNetworking-body-") })
        if cancelsItsTask { withUnsafeCurrentTask { $0?.cancel() } }
    }
}

/// A server whose one answer is a head, then `body` once `gate` is signalled, then a signal
/// on `written`.
struct HeldBodyServer {
    let gate = DispatchSemaphore(value: 0)
    let written = DispatchSemaphore(value: 0)
    let spillsSeen = Log<[String]>()
    private let server: LoopbackHTTPServer

    init(body: Data) throws {
        let head = Data("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
        let (gate, written) = (gate, written)
        server = try LoopbackHTTPServer { _ in .raw(head, gate: gate, rest: body, written: written) }
    }

    var baseURL: URL { server.baseURL }

    func stop() { server.stop() }
}
