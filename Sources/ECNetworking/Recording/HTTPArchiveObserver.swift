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
        let end = ContinuousClock.now
        let head = ended.head ?? end
        let wait = Self.milliseconds(head - ended.onWire)
        let receive = Self.milliseconds(end - head)
        recorder.append(
            HTTPArchive.Entry(
                startedDateTime: Self.timestamp(ended.started), time: wait + receive, request: ended.request,
                response: archived(response), cache: HTTPArchive.Cache(),
                timings: HTTPArchive.Timings(
                    blocked: -1, dns: -1, connect: -1, send: 0, wait: wait, receive: receive, ssl: -1)))
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
                let isText = Self.isRedactable(contentType, bytes) && String(validating: redacted, as: UTF8.self) != nil
                postData = HTTPArchive.PostData(
                    mimeType: contentType ?? "", text: isText ? String(decoding: redacted, as: UTF8.self) : "")
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

    private func archived(_ response: NetworkResponse) -> HTTPArchive.Response {
        let contentType = response.headers["Content-Type"]
        var content = HTTPArchive.Content(size: -1, mimeType: contentType ?? "", text: nil, encoding: nil)
        var bodySize = -1
        if response.unreadBody == nil {
            let body = response.body
            bodySize = body.count
            content.size = body.count
            let redacted = redaction.body(body, contentType: contentType)
            if let text = String(validating: redacted, as: UTF8.self) {
                content.text = text
            } else {
                content.text = redacted.base64EncodedString()
                content.encoding = "base64"
            }
        }
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
