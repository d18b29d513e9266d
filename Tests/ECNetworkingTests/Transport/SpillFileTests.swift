import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// The spill file keeps what a slow reader has not taken yet when FoundationNetworking cannot pause
/// the transfer (Linux): bounded by the transport's `maximumSpillSize`, in its `spillDirectory`.
@Suite("SpillFile: a limit, and the folder it is given", .timeLimit(.minutes(1)))
struct SpillFileTests {
    private let megabyte = TransportTestRoutes.megabyte

    /// A new, empty folder of its own, so that no other test's files are in it.
    private static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("SpillFileTests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a file refuses the bytes that would take it past its limit, and keeps the ones it took")
    func limit() throws {
        var file = try #require(SpillFile(SpillFile.Settings(directory: nil, limit: 10)))
        defer { file.close() }

        #expect(file.append(Data("012345".utf8)) == .appended)
        #expect(file.append(Data("6789A".utf8)) == .overLimit)
        #expect(file.append(Data("6789".utf8)) == .appended)

        #expect(file.read(upTo: 100) == Data("0123456789".utf8))
    }

    #if os(Linux)
        @Test("what the reader has read gives its space back: a reader a little behind never meets the limit")
        func readSpaceReturns() throws {
            var file = try #require(SpillFile(SpillFile.Settings(directory: nil, limit: megabyte)))
            defer { file.close() }
            let chunk = Data(repeating: 0x61, count: 65_536)
            var read = 0
            // 8 MiB through a 1 MiB limit, the reader staying four chunks behind: before, the file
            // refused the 17th chunk, since every byte written kept its space.
            for index in 0..<128 {
                #expect(file.append(chunk) == .appended, "chunk \(index)")
                if index >= 4 { read += file.read(upTo: chunk.count)?.count ?? 0 }
            }
            #expect(read == 124 * chunk.count)
            #expect(file.unreadCount == Int64(4 * chunk.count))
            // The lag still has its bound.
            for _ in 0..<12 { _ = file.append(chunk) }
            #expect(file.append(chunk) == .overLimit)
        }
    #endif

    @Test("a file is made in the folder it is given, or not at all")
    func folder() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        let file = try #require(SpillFile(SpillFile.Settings(directory: folder, limit: 10)))
        defer { file.close() }
        #if os(Linux)
            #expect(file.systemPath?.hasPrefix(folder.path + "/ECNetworking-body-") == true)
        #endif
        // Unlinked at once: the folder shows nothing.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(SpillFile(SpillFile.Settings(directory: folder.appendingPathComponent("missing"), limit: 10)) == nil)
    }

    @Test("a process the app starts inherits no descriptor to a spilled body: the file is closed on exec")
    func closedOnExec() throws {
        let file = try #require(SpillFile(SpillFile.Settings(directory: nil, limit: 10)))
        defer { file.close() }
        // Opened by `mkstemp`, it was inherited by every child process until the body ended.
        #expect(file.closesOnExec)
    }

    #if canImport(FoundationNetworking)
        @Test("a reader that falls further behind than the spill limit ends the transfer with a typed error")
        func readerFallsBehindPastTheLimit() async throws {
            let body = Data(repeating: 0x5A, count: 48 * megabyte)
            let server = try LoopbackHTTPServer { _ in .response(status: 200, body: body) }
            defer { server.stop() }
            let transport = URLSessionTransport(maximumSpillSize: 2 * megabyte)
            defer { transport.invalidate() }

            let response = try await transport.send(
                TransportRequest(method: .get, url: server.baseURL.appendingPathComponent("large")))
            // The reader stalls from the start; the exchange ends (and lets go of its task) once
            // the file is full.
            try await waitUntil { transport.activeTaskCount == 0 }

            await #expect {
                for try await _ in response.body {}
            } throws: { error in
                guard case .readerFellBehind(let limit) = error as? NetworkError else { return false }
                return limit == 2 * megabyte
            }
        }

        @Test("a reader that falls behind has its bytes kept in the spill folder given, and gets them all")
        func spillFolderIsHonoured() async throws {
            let folder = try Self.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // Bytes that differ from their neighbours, so a chunk out of order shows.
            let period = Data((0..<251).map { UInt8($0) })
            var body = Data(capacity: 24 * megabyte + period.count)
            while body.count < 24 * megabyte { body.append(period) }
            let served = body
            let server = try LoopbackHTTPServer { _ in .response(status: 200, body: served) }
            defer { server.stop() }
            let transport = URLSessionTransport(spillDirectory: folder)
            defer { transport.invalidate() }

            let response = try await transport.send(
                TransportRequest(method: .get, url: server.baseURL.appendingPathComponent("large")))
            var iterator = response.body.makeAsyncIterator()
            var received = try await iterator.next() ?? Data()
            // The reader stalls until the transfer spills into the folder given.
            try await waitUntil { openFilePaths().contains { $0.hasPrefix(folder.path + "/ECNetworking-body-") } }
            while let chunk = try await iterator.next() { received.append(chunk) }

            #expect(received == body)
            #expect(!openFilePaths().contains { $0.hasPrefix(folder.path) }, "the spill file is closed")
        }
    #endif
}
