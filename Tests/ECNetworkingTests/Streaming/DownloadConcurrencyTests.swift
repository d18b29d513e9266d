import ECNetworking
import Foundation
import TestSupport
import Testing

/// `maximumConcurrentRequests` bounds transfers: a download, whose body is the transfer, keeps its
/// slot until the body ends, whatever `streamsHoldConcurrencySlot` says.
@Suite("Downloads and the concurrency limit", .timeLimit(.minutes(1)))
struct DownloadConcurrencyTests {
    @Test(
        "with a limit of 2, no more than two downloads transfer at once, however many are started",
        arguments: TransportKind.allCases)
    func limitBoundsBodies(kind: TransportKind) async throws {
        // Each answer sends its head at once and its body only when the test lets one through.
        let gate = DispatchSemaphore(value: 0)
        let head = Data("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\n".utf8)
        let server = try LoopbackHTTPServer { _ in .raw(head, gate: gate, rest: Data("hello".utf8)) }
        let count = 8
        defer {
            for _ in 0..<count { gate.signal() }
            server.stop()
        }
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let finished = Counter()

        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.maximumConcurrentRequests = 2 }) {
            network in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let request = NetworkRequest(url: server.baseURL.appendingPathComponent("file-\(index)"))
                        let file = try await network.download(
                            request, to: folder.url.appendingPathComponent("file-\(index)"))
                        #expect(file.byteCount == 5)
                        finished.increment()
                    }
                }
                for released in 0..<count {
                    // A request reaches the server only when a slot is free, that is when a body
                    // has ended: never more than two ahead of the bodies that did.
                    try await waitUntil { server.requests.count >= min(released + 2, count) }
                    try await Task.sleep(for: .milliseconds(100))
                    #expect(
                        server.requests.count <= released + 2,
                        "\(server.requests.count) requests with \(released) bodies ended")
                    gate.signal()
                    try await waitUntil { finished.count == released + 1 }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test(
        "a download retried on its head (a 202 polled until ready) frees the slot the retry waits for, at a limit of 1",
        arguments: TransportKind.allCases)
    func retriedHeadFreesTheSlot(kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { request in
            let isFirst = !request.path.contains("?ready")
            return isFirst
                ? .response(status: 202, headers: ["Retry-After": "0"], body: Data("pending".utf8))
                : .response(status: 200, body: Data("done".utf8))
        }
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }

        try await kind.withNetwork(baseURL: server.baseURL, configure: { $0.maximumConcurrentRequests = 1 }) {
            network in
            // Polls: a 202 is retried, for a URL that says the job is ready.
            network.add(
                action: Completed { _, response in
                    response.statusCode == 202 ? .retry(after: .zero) : .proceed(response)
                })
            network.add(
                action: WillBegin { request in
                    var request = request
                    if !server.requests.isEmpty {
                        request.url = server.baseURL.appendingPathComponent("report").appending(queryItems: [
                            URLQueryItem(name: "ready", value: nil)
                        ])
                    }
                    return request
                })
            let file = try await network.download(
                NetworkRequest(url: server.baseURL.appendingPathComponent("report")),
                to: folder.url.appendingPathComponent("report"))
            #expect(file.response.statusCode == 200)
            #expect(try Data(contentsOf: file.fileURL) == Data("done".utf8))
        }
        #expect(server.requests.count == 2)
    }
}
