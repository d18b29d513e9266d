import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose body arrives in pieces, for testing what an app does with a stream, a
/// download or a Server-Sent Events subscription (its progress, its reconnection, its resume)
/// without a server: the head, then chunks with a pause before each, then the end or a failure
/// part-way.
///
/// ```swift
/// fake.stub(ReportRequest.self, streaming: .body(report, chunkSize: 4_096, every: .milliseconds(5)))
/// fake.stub(FeedRequest.self, streaming: .events([ServerSentEvent(id: "1", data: "hello")]).breaking(after: 0))
/// ```
///
/// A stub may also be a script that sees each request as it goes out (its `Range`, `If-Range` or
/// `Last-Event-ID`) and answers it: see ``FakeNetwork/stub(_:streaming:)-(R.Type,(NetworkRequest)->FakeStream)``.
public struct FakeStream: Sendable {
    /// The status of the head.
    public var statusCode: Int
    /// The headers of the head.
    public var headers: HTTPHeaders
    /// The body's pieces, in order.
    public var chunks: [Data]
    /// The pause before each piece.
    public var interval: Duration
    /// Where the body fails, in bytes, and with what; `nil` for a body that ends well.
    public var failure: (byteCount: Int, error: any Error)?

    /// A response of `chunks`, with `interval` before each.
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], chunks: [Data], every interval: Duration = .zero) {
        self.statusCode = statusCode
        self.headers = headers
        self.chunks = chunks
        self.interval = interval
    }

    /// A response of `body`, cut into pieces of `chunkSize` bytes with `interval` before each.
    public static func body(
        _ body: Data, chunkSize: Int = 16_384, every interval: Duration = .zero, statusCode: Int = 200,
        headers: HTTPHeaders = [:]
    ) -> FakeStream {
        let size = max(chunkSize, 1)
        let chunks = stride(from: 0, to: body.count, by: size).map { offset in
            body.subdata(in: body.startIndex + offset..<body.startIndex + min(offset + size, body.count))
        }
        var stream = FakeStream(statusCode: statusCode, headers: headers, chunks: chunks, every: interval)
        if stream.headers["Content-Length"] == nil { stream.headers["Content-Length"] = String(body.count) }
        return stream
    }

    /// An event stream (`text/event-stream`) of `events`, one piece each, with `interval` before
    /// each.
    public static func events(_ events: [ServerSentEvent], every interval: Duration = .zero) -> FakeStream {
        FakeStream(
            headers: ["Content-Type": "text/event-stream"], chunks: events.map { Data(encoded($0).utf8) },
            every: interval)
    }

    /// This response with its body failing once `byteCount` bytes have arrived, with `error`: by
    /// default the connection lost, as `URLSession` reports a server that goes away.
    public func breaking(
        after byteCount: Int, with error: any Error = NetworkError.transport(URLError(.networkConnectionLost))
    ) -> FakeStream {
        var stream = self
        stream.failure = (max(byteCount, 0), error)
        return stream
    }

    /// The head, with the body to come as ``chunks`` say; answered for `request`.
    func response(to request: NetworkRequest) -> NetworkResponse {
        let chunks = bodyChunks()
        let failure = failure.map(\.error)
        let interval = interval
        let next = LockedState(0)
        let body = ByteStream {
            let index = next.withLock { next -> Int? in
                guard next < chunks.count else { return nil }
                defer { next += 1 }
                return next
            }
            guard let index else {
                if let failure { throw failure }
                return nil
            }
            if interval > .zero { try await Task.sleep(for: interval) }
            return chunks[index]
        }
        return NetworkResponse(
            statusCode: statusCode, headers: headers, url: try? request.urlWithQuery(), request: request
        ).streaming(body)
    }

    /// The whole body, read as a send that gathers it would: with the pauses, and failing where
    /// the stream fails.
    func collected(for request: NetworkRequest) async throws -> NetworkResponse {
        var body = Data()
        for chunk in bodyChunks() {
            if interval > .zero { try await Task.sleep(for: interval) }
            body.append(chunk)
        }
        if let failure { throw failure.error }
        return NetworkResponse(
            statusCode: statusCode, headers: headers, body: body, url: try? request.urlWithQuery(), request: request)
    }

    /// The pieces as they arrive: all of ``chunks``, or those before ``failure``, the last one cut
    /// at its byte count.
    private func bodyChunks() -> [Data] {
        guard let limit = failure?.byteCount else { return chunks }
        var kept: [Data] = []
        var count = 0
        for chunk in chunks where count < limit {
            let piece = chunk.prefix(limit - count)
            kept.append(piece)
            count += piece.count
        }
        return kept
    }

    /// `event` as a server writes it: its fields, one `data` line per line of its data, a blank line.
    private static func encoded(_ event: ServerSentEvent) -> String {
        var text = ""
        if let id = event.id { text += "id: \(id)\n" }
        if event.event != "message" { text += "event: \(event.event)\n" }
        if let retry = event.retry {
            let milliseconds = retry.components.seconds * 1_000 + retry.components.attoseconds / 1_000_000_000_000_000
            text += "retry: \(milliseconds)\n"
        }
        for line in event.data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return text + "\n"
    }
}
