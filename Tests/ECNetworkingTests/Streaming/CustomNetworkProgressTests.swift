import ECNetworking
import Foundation
import TestSupport
import Testing

/// A ``Network`` of your own reports and finishes progress with the handler's public API alone:
/// no `@testable` import here, so only what an app can call is used.
@Suite("Progress from a Network of your own", .timeLimit(.minutes(2)))
struct CustomNetworkProgressTests {
    /// A network that answers every raw stream with `body`, reporting it in two halves as it
    /// "arrives", and finishing the progress when the send ends.
    private final class ReportingNetwork: Network {
        let body: Data

        init(body: Data) {
            self.body = body
        }

        func stream(
            _ request: NetworkRequest, priority: RequestPriority, progress: TransferProgressHandler?
        ) async throws -> ResponseStream {
            defer { progress?.finish() }
            let total = Int64(body.count)
            for completed in [total / 2, total] {
                progress?.report(
                    TransferProgress(direction: .download, completedByteCount: completed, expectedByteCount: total))
            }
            return ResponseStream(completeResponse: NetworkResponse(statusCode: 200, body: body, url: request.url))
        }

        func add(action: any Action) {}
        func send<R: Request>(_ request: R, priority: RequestPriority) async throws -> R.Response {
            try request.response(from: body, with: JSONDecoder())
        }
        func send(_ request: NetworkRequest, priority: RequestPriority) async throws -> NetworkResponse {
            throw NetworkError.invalidated
        }
        func send<R: StorableRequest>(
            _ request: R, storage: any ResponseStore, policy: StoragePolicy, priority: RequestPriority
        ) async throws -> StoredValue<R.Response> {
            throw NetworkError.invalidated
        }
        func storedThenFresh<R: StorableRequest>(
            _ request: R, storage: any ResponseStore, priority: RequestPriority
        ) -> AsyncThrowingStream<StoredValue<R.Response>, any Error> {
            AsyncThrowingStream { $0.finish(throwing: NetworkError.invalidated) }
        }
        func storedValue<R: StorableRequest>(
            for request: R, in storage: any ResponseStore
        ) async throws -> StoredValue<R.Response>? {
            nil
        }
        func cancelAll() {}
        func cancelAll<R: Request>(of requestType: R.Type) {}
        var activeRequestCount: Int { 0 }
        func activityUpdates() -> AsyncStream<Int> { AsyncStream { $0.finish() } }
        func invalidate() {}
        func finishSendsAndInvalidate() async {}
    }

    @Test("its reports arrive, and the updates end when it finishes")
    func reportsAndFinishes() async throws {
        let body = Data(repeating: 0x6e, count: 1_000)
        let network = ReportingNetwork(body: body)
        let (updates, handler) = TransferProgressHandler.makeStream(bufferingPolicy: .unbounded)
        let stream = try await network.stream(
            NetworkRequest(url: URL(string: "https://example.com/report")!), priority: .normal, progress: handler)
        #expect(try await stream.collect() == body)
        // Without `finish()`, this loop would never end.
        var reports: [TransferProgress] = []
        for await progress in updates { reports.append(progress) }
        #expect(reports.map(\.completedByteCount) == [500, 1_000])
        #expect(reports.allSatisfy { $0.direction == .download && $0.expectedByteCount == 1_000 })
    }

    @Test("the default send with progress reports none and finishes when the send ends")
    func defaultSendWithProgress() async throws {
        struct TextRequest: Request {
            typealias Response = String
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                NetworkRequest(url: baseURL.appendingPathComponent("text"))
            }
        }
        let network = ReportingNetwork(body: Data("hello".utf8))
        let (updates, handler) = TransferProgressHandler.makeStream(bufferingPolicy: .unbounded)
        #expect(try await network.send(TextRequest(), priority: .normal, progress: handler) == "hello")
        // Without `finish()`, this loop would never end.
        var reports: [TransferProgress] = []
        for await progress in updates { reports.append(progress) }
        #expect(reports.isEmpty, "as Migrating says: a typed send does not hand its body back to count")
    }

    @Test("a closure handler hears its reports, and finishing it twice is harmless")
    func closureHandler() async throws {
        let reported = Counter()
        let handler = TransferProgressHandler { _ in reported.increment() }
        handler.report(TransferProgress(direction: .upload, completedByteCount: 1, expectedByteCount: 2))
        handler.finish()
        handler.finish()
        #expect(reported.count == 1)
    }
}
