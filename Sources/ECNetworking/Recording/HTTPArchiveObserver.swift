import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``SendObserver`` behind ``NetworkConfiguration/archiveRecorder``: it turns each attempt's
/// request on the wire and its response into an ``HTTPArchive/Entry``, redacted.
struct HTTPArchiveObserver: SendObserver {
    let recorder: HTTPArchiveRecorder

    func sendStarted(_ request: NetworkRequest, redaction: Redaction) -> any SendObservation {
        HTTPArchiveObservation(recorder: recorder, redaction: redaction)
    }

    func storedAnswer(_ request: NetworkRequest, age: Duration, reason: String) {}
    func storageBypassed(_ request: NetworkRequest) {}
}

/// One send's attempts, as ``HTTPArchiveObserver`` records them.
private final class HTTPArchiveObservation: SendObservation {
    private struct Attempt {
        var request: HTTPArchive.Request
        var started: Date
        var onWire: ContinuousClock.Instant
        var head: ContinuousClock.Instant?
    }

    private let recorder: HTTPArchiveRecorder
    private let redaction: Redaction
    /// The attempt on the wire; the runner calls an observation from the sending task, one attempt
    /// after another, but a lock keeps it `Sendable` without reasoning about that.
    private let attempt = LockedState<Attempt?>(nil)

    init(recorder: HTTPArchiveRecorder, redaction: Redaction) {
        self.recorder = recorder
        self.redaction = redaction
    }

    var needsTaskContext: Bool { false }

    func attemptOnWire(_ request: NetworkRequest) {
        let recorded = archived(request)
        attempt.withLock { $0 = Attempt(request: recorded, started: Date(), onWire: .now) }
    }

    func responseArrived(request: NetworkRequest, response: NetworkResponse) {
        attempt.withLock { $0?.head = .now }
    }

    func attemptEnded(response: NetworkResponse?, error: (any Error)?) {
        guard
            let ended = attempt.withLock({ attempt -> Attempt? in
                defer { attempt = nil }; return attempt
            }),
            let response
        else { return }
        let headArrived = ended.head ?? .now
        guard let relay = response.unreadBody?.relay else {
            let body = response.body
            return recorder.append(
                entry(of: ended, head: headArrived, response: archived(response, body: body, receivedCount: body.count))
            )
        }
        // A streamed body: kept as the caller reads it, and the entry made when it ends, with the
        // time to its end and, when it broke off, why.
        let kept = KeptBody(limit: recorder.maximumStreamedBodySize)
        relay.observeChunks { kept.append($0) }
        // The head alone: the relay keeps this handler until it ends, and a handler that held the
        // body would keep the stream from ever being let go (which is what ends an unread body).
        var head = response
        head.unreadBody = nil
        relay.whenEnded { [self, head] end in
            let received = Int(clamping: end.byteCount)
            var entry = entry(
                of: ended, head: headArrived, response: archived(head, body: kept.bytes, receivedCount: received))
            entry.error = end.error.map(redaction.describe)
            recorder.append(entry)
        }
    }

    /// The entry of the attempt `attempt`, whose head arrived at `head` and which ends now.
    private func entry(of attempt: Attempt, head: ContinuousClock.Instant, response: HTTPArchive.Response)
        -> HTTPArchive.Entry
    {
        let wait = Self.milliseconds(head - attempt.onWire)
        let receive = Self.milliseconds(.now - head)
        return HTTPArchive.Entry(
            startedDateTime: Self.timestamp(attempt.started), time: wait + receive, request: attempt.request,
            response: response, cache: HTTPArchive.Cache(),
            timings: HTTPArchive.Timings(
                blocked: -1, dns: -1, connect: -1, send: 0, wait: wait, receive: receive, ssl: -1))
    }

    func sendEnded(_ metrics: RequestMetrics) {}

    private func archived(_ request: NetworkRequest) -> HTTPArchive.Request {
        let url = redaction.url(request.url)
        let contentType = request.headers["Content-Type"] ?? request.body?.impliedContentType
        var postData: HTTPArchive.PostData?
        var bodySize = 0
        if let body = request.body {
            switch body.content {
            case .data(let bytes, _):
                bodySize = bytes.count
                let redacted = redaction.body(bytes, contentType: contentType)
                let text = Self.isRedactable(contentType, bytes) ? String(validUTF8: redacted) : nil
                postData = HTTPArchive.PostData(mimeType: contentType ?? "", text: text ?? "")
            default:
                bodySize = -1
                postData = HTTPArchive.PostData(mimeType: contentType ?? "", text: "")
            }
        }
        return HTTPArchive.Request(
            method: request.method.rawValue, url: url, httpVersion: "HTTP/1.1", cookies: [],
            headers: archived(request.headers), queryString: Self.query(of: url), postData: postData,
            headersSize: -1, bodySize: bodySize)
    }

    /// `response` with `body`, the first bytes of the `receivedCount` that arrived (all of them
    /// unless the recorder's limit cut it short).
    private func archived(_ response: NetworkResponse, body: Data, receivedCount: Int) -> HTTPArchive.Response {
        let contentType = response.headers["Content-Type"]
        var content = HTTPArchive.Content(size: receivedCount, mimeType: contentType ?? "", text: nil, encoding: nil)
        // An event stream's data lines carry JSON as often as not (`data: {"token": …}`): its
        // sensitive fields are redacted as a JSON body's are, wherever they stand in the text.
        let isEventStream = contentType?.lowercased().contains("text/event-stream") == true
        let redacted = redaction.body(body, contentType: isEventStream ? "application/json" : contentType)
        if let text = String(validUTF8: redacted) {
            content.text = text
        } else {
            content.text = redacted.base64EncodedString()
            content.encoding = "base64"
        }
        if body.count < receivedCount {
            content.comment =
                "the first \(body.count) of \(receivedCount) bytes: the recorder's maximumStreamedBodySize"
        }
        let bodySize = receivedCount
        return HTTPArchive.Response(
            status: response.statusCode,
            statusText: HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
            httpVersion: "HTTP/1.1", cookies: [], headers: archived(response.headers), content: content,
            redirectURL: response.headers["Location"].map { redaction.urlText($0) } ?? "", headersSize: -1,
            bodySize: bodySize)
    }

    private func archived(_ headers: HTTPHeaders) -> [HTTPArchive.NameValue] {
        headers.fields.map {
            HTTPArchive.NameValue(name: $0.name, value: redaction.headerValue(name: $0.name, value: $0.value))
        }
    }

    /// Whether a request body can be kept as text: JSON and form bodies, whose fields the
    /// redaction knows, and other text that is not a multipart form.
    private static func isRedactable(_ contentType: String?, _ bytes: Data) -> Bool {
        guard let type = contentType?.lowercased() else { return true }
        if type.hasPrefix("multipart/") { return false }
        return type.contains("json") || type.contains("x-www-form-urlencoded") || type.hasPrefix("text/")
            || type.contains("xml")
    }

    private static func query(of url: String) -> [HTTPArchive.NameValue] {
        (URLComponents(string: url)?.percentEncodedQueryItems ?? []).map {
            HTTPArchive.NameValue(
                name: $0.name.removingPercentEncoding ?? $0.name,
                value: ($0.value ?? "").removingPercentEncoding ?? ($0.value ?? ""))
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        // To the microsecond, the precision browsers' exports have.
        return ((Double(seconds) * 1e6 + Double(attoseconds) / 1e12).rounded()) / 1_000
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// The part of a streamed body an entry keeps, filled as the body's chunks arrive.
private final class KeptBody: Sendable {
    private let limit: Int
    private let kept = LockedState(Data())

    init(limit: Int) {
        self.limit = limit
    }

    /// Keeps as much of `chunk` as the limit leaves room for.
    func append(_ chunk: Data) {
        kept.withLock { kept in
            let room = limit - kept.count
            if room > 0 { kept.append(chunk.prefix(room)) }
        }
    }

    /// What was kept so far.
    var bytes: Data { kept.withLock { $0 } }
}
