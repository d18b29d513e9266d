import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A multipart body too large for memory goes through a temporary file: made 0600, only once the
/// send has its slot, once per send whatever its retries, and gone when the send ends.
@Suite("Multipart temporary file: private, after admission, once per send, gone at the end", .timeLimit(.minutes(1)))
struct MultipartTemporaryFileTests {
    /// A server whose answer to each request waits until the test opens its gate, so that the send
    /// is in flight, and its temporary file in use, while the test looks.
    private final class HeldServer: Sendable {
        let gates = LockedState([DispatchSemaphore]())
        let server: LoopbackHTTPServer

        /// Answers the `n`th request (from 0) with `statuses[n]`, or 200 past the list.
        init(statuses: [Int] = []) throws {
            let gates = gates
            server = try LoopbackHTTPServer { _ in
                let gate = DispatchSemaphore(value: 0)
                let index = gates.withLock { gates -> Int in
                    gates.append(gate)
                    return gates.count - 1
                }
                _ = gate.wait(timeout: .now() + 30)
                return .response(status: index < statuses.count ? statuses[index] : 200)
            }
        }

        /// The number of requests whose answer waits, or waited, for its gate.
        var arrivals: Int { gates.withLock { $0.count } }

        /// Lets the answer to the `n`th request go.
        func release(_ index: Int) {
            gates.withLock { $0[index] }.signal()
        }

        /// Lets every answer go, as a test ends.
        func stop() {
            gates.withLock { $0 }.forEach { $0.signal() }
            server.stop()
        }
    }

    /// The library's multipart temporary files that hold a body with `boundary`.
    static func temporaryFiles(of boundary: String) -> [URL] {
        let folder = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let start = Data("--\(boundary)\r\n".utf8)
        return names.filter { $0.hasPrefix("ECNetworking-multipart-") }.map { folder.appendingPathComponent($0) }
            .filter { url in
                guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
                defer { try? handle.close() }
                return (try? handle.read(upToCount: start.count)) == start
            }
    }

    /// A form with a fresh boundary, sent from disk whatever its size.
    private static func form(fileAt url: URL) -> MultipartFormData {
        var form = MultipartFormData()
        form.memoryThreshold = 0
        form.append("Ada", name: "author")
        form.append(fileAt: url, name: "photo", contentType: "image/jpeg")
        return form
    }

    private static func request(
        _ form: MultipartFormData, on server: LoopbackHTTPServer, method: HTTPMethod = .post
    ) -> NetworkRequest {
        NetworkRequest(method: method, url: server.baseURL.appendingPathComponent("photos"), body: .multipart(form))
    }

    @Test("the file is readable by the user alone while the upload is in flight, and gone when it succeeds")
    func privateWhileInFlight() async throws {
        let held = try HeldServer()
        defer { held.stop() }
        let photo = try makeTemporaryFile(Data(repeating: 0x42, count: 100_000))
        defer { try? FileManager.default.removeItem(at: photo.deletingLastPathComponent()) }
        let form = Self.form(fileAt: photo)
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: held.server.baseURL))

        let send = Task { try await network.send(Self.request(form, on: held.server)) }
        try await waitUntil { held.arrivals == 1 }
        let files = Self.temporaryFiles(of: form.boundary)
        #expect(files.count == 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: try #require(files.first).path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        held.release(0)
        #expect(try await send.value.statusCode == 200)
        #expect(Self.temporaryFiles(of: form.boundary).isEmpty)
    }

    @Test("a retry sends the file its first attempt wrote, without encoding the form again")
    func encodedOnceAcrossARetry() async throws {
        let held = try HeldServer(statuses: [503])
        defer { held.stop() }
        let original = Data(repeating: 0x41, count: 100_000)
        let photo = try makeTemporaryFile(original)
        defer { try? FileManager.default.removeItem(at: photo.deletingLastPathComponent()) }
        let form = Self.form(fileAt: photo)
        var configuration = NetworkConfiguration(baseURL: held.server.baseURL)
        configuration.retryPolicy = RetryPolicy(
            maximumAttempts: 2, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(2))
        let network = URLSessionNetwork(configuration: configuration)

        // A PUT, which the policy retries: it is idempotent.
        let send = Task { try await network.send(Self.request(form, on: held.server, method: .put)) }
        try await waitUntil { held.arrivals == 1 }
        let firstFiles = Self.temporaryFiles(of: form.boundary)
        // Same size, other bytes: a second encoding would send these.
        try Data(repeating: 0x5A, count: original.count).write(to: photo)
        held.release(0)
        try await waitUntil { held.arrivals == 2 }
        let secondFiles = Self.temporaryFiles(of: form.boundary)
        held.release(1)

        #expect(try await send.value.statusCode == 200)
        #expect(firstFiles.count == 1)
        #expect(secondFiles == firstFiles, "the retry reads the same file")
        let bodies = held.server.requests.map(\.body)
        #expect(bodies.count == 2)
        #expect(bodies.first == bodies.last)
        #expect(bodies.last?.range(of: original) != nil)
        #expect(Self.temporaryFiles(of: form.boundary).isEmpty)
    }

    @Test("a send that fails leaves no file behind")
    func goneAfterFailure() async throws {
        let held = try HeldServer(statuses: [500])
        defer { held.stop() }
        let photo = try makeTemporaryFile(Data(repeating: 0x43, count: 100_000))
        defer { try? FileManager.default.removeItem(at: photo.deletingLastPathComponent()) }
        let form = Self.form(fileAt: photo)
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: held.server.baseURL))

        let send = Task { try await network.send(Self.request(form, on: held.server)) }
        try await waitUntil { held.arrivals == 1 }
        #expect(Self.temporaryFiles(of: form.boundary).count == 1)
        held.release(0)

        await #expect {
            _ = try await send.value
        } throws: { error in
            (error as? NetworkError)?.statusCode == 500
        }
        #expect(Self.temporaryFiles(of: form.boundary).isEmpty)
    }

    @Test("a send cancelled while its upload is in flight leaves no file behind")
    func goneAfterCancellation() async throws {
        let held = try HeldServer()
        defer { held.stop() }
        let photo = try makeTemporaryFile(Data(repeating: 0x44, count: 100_000))
        defer { try? FileManager.default.removeItem(at: photo.deletingLastPathComponent()) }
        let form = Self.form(fileAt: photo)
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: held.server.baseURL))

        let send = Task { try await network.send(Self.request(form, on: held.server)) }
        try await waitUntil { held.arrivals == 1 }
        #expect(Self.temporaryFiles(of: form.boundary).count == 1)
        send.cancel()

        await #expect {
            _ = try await send.value
        } throws: { error in
            (error as? NetworkError)?.isCancellation == true
        }
        #expect(Self.temporaryFiles(of: form.boundary).isEmpty)
    }

    @Test("a send waiting for its concurrency slot has written no file yet")
    func encodedAfterAdmission() async throws {
        let held = try HeldServer()
        defer { held.stop() }
        let photo = try makeTemporaryFile(Data(repeating: 0x45, count: 100_000))
        defer { try? FileManager.default.removeItem(at: photo.deletingLastPathComponent()) }
        let first = Self.form(fileAt: photo)
        let second = Self.form(fileAt: photo)
        var configuration = NetworkConfiguration(baseURL: held.server.baseURL)
        configuration.maximumConcurrentRequests = 1
        let network = URLSessionNetwork(configuration: configuration)

        let firstSend = Task { try await network.send(Self.request(first, on: held.server)) }
        try await waitUntil { held.arrivals == 1 }
        let secondSend = Task { try await network.send(Self.request(second, on: held.server)) }
        try await waitUntil { network.admission?.waitingCount == 1 }
        #expect(Self.temporaryFiles(of: second.boundary).isEmpty, "queued, it holds no file")

        held.release(0)
        try await waitUntil { held.arrivals == 2 }
        #expect(Self.temporaryFiles(of: second.boundary).count == 1)
        held.release(1)

        #expect(try await firstSend.value.statusCode == 200)
        #expect(try await secondSend.value.statusCode == 200)
        #expect(Self.temporaryFiles(of: first.boundary).isEmpty)
        #expect(Self.temporaryFiles(of: second.boundary).isEmpty)
    }
}
