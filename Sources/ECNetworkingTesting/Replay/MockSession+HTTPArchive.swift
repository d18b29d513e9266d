import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MockSession {
    /// A session that answers from a recorded HAR archive (see `HTTPArchiveRecorder`), so the
    /// whole of a network's pipeline (actions, validation, decoding) runs against what a real
    /// server once answered, with no server.
    ///
    /// A request matches an entry with its method, its URL and its body, each redacted with
    /// `sensitiveData` first, as the recorder redacted the entry, so a request that carries a
    /// token still matches the entry that recorded `<redacted>` in its place; an entry whose body
    /// was left out (binary, a file, a multipart form) matches any body. Entries that match the same
    /// request answer in the order they were recorded, one per request, and the last of them answers
    /// every request after that. A request that matches none fails with
    /// ``MockSessionError/noStub(request:)``, which names its method and URL.
    ///
    /// The answers are the recorded ones: status, headers (redacted values stay redacted; the
    /// encoding headers are dropped, since the body is decoded, and a recorded `Content-Length`
    /// gives the decoded body's length, or, for a body cut short, the whole body's) and
    /// body (an entry without a recorded body answers an empty one). A streamed body that broke off
    /// when it was recorded (`HTTPArchive.Entry.error`), or that the recorder kept only the start
    /// of, breaks off again after the bytes kept, with `URLError(.networkConnectionLost)`: a stream
    /// or a download reads those bytes, then fails; a send that gathers the body fails. With
    /// `replaysTimings`, each answer comes after the entry's recorded time.
    public convenience init(
        replaying archive: HTTPArchive, sensitiveData: SensitiveData = .default, replaysTimings: Bool = false
    ) {
        self.init()
        let redaction = Redaction(sensitiveData)
        // Grouped by what they match, in recorded order.
        var groups: [(key: HTTPArchiveKey, responses: [MockResponse])] = []
        for entry in archive.log.entries {
            let key = HTTPArchiveKey(entry.request)
            let response = Self.response(for: entry, replaysTimings: replaysTimings)
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].responses.append(response)
            } else {
                groups.append((key, [response]))
            }
        }
        for group in groups {
            let key = group.key
            let matcher = RequestMatcher("\(key.method) \(key.url) (recorded)") {
                key.matches($0, redaction: redaction)
            }
            // The last answer stays, under the list that answers in order and then stops matching.
            stub(matcher, with: group.responses[group.responses.count - 1])
            stub(matcher, with: group.responses)
        }
    }

    /// The answer an entry recorded.
    private static func response(for entry: HTTPArchive.Entry, replaysTimings: Bool) -> MockResponse {
        let content = entry.response.content
        var body = Data()
        if let text = content.text {
            body = content.encoding == "base64" ? Data(base64Encoded: text) ?? Data() : Data(text.utf8)
        }
        var headers = HTTPHeaders()
        var recordedLength: String?
        var isEncoded = false
        for header in entry.response.headers {
            switch header.name.lowercased() {
            case "content-length": recordedLength = header.value
            case "content-encoding": isEncoded = true
            case "transfer-encoding": break
            default: headers.add(name: header.name, value: header.value)
            }
        }
        let isWhole = entry.error == nil && content.comment == nil
        // The length, where the recording had one, as it describes the body replayed: the decoded
        // bytes of a whole body; the recorded value for a body cut short, unless it counted
        // compressed bytes. Progress and a resume's expected length read it.
        if let recordedLength {
            // A HEAD's answer has no body, and its length is that of the body a GET would get.
            if isWhole, entry.request.method != "HEAD" {
                headers["Content-Length"] = String(body.count)
            } else if !isEncoded || entry.request.method == "HEAD" {
                headers["Content-Length"] = recordedLength
            }
        }
        let delay: Duration = replaysTimings ? .milliseconds(max(0, entry.time)) : .zero
        if !isWhole {
            return MockResponse(
                statusCode: entry.response.status, data: body, headers: headers,
                breakingWith: URLError(.networkConnectionLost), delay: delay)
        }
        return MockResponse(statusCode: entry.response.status, data: body, headers: headers, delay: delay)
    }
}

/// What a recorded request matches: its method, redacted URL and, when it was kept, redacted body.
private struct HTTPArchiveKey: Equatable, Sendable {
    let method: String
    let url: String
    /// `nil` when the recording left the body out, or the request had none.
    let body: String?

    init(_ request: HTTPArchive.Request) {
        method = request.method
        url = request.url
        body = request.postData.flatMap { $0.text.isEmpty ? nil : Self.canonical(Data($0.text.utf8)) }
    }

    func matches(_ request: URLRequest, redaction: Redaction) -> Bool {
        guard let requestURL = request.url, (request.httpMethod ?? "GET") == method,
            redaction.url(requestURL) == url
        else { return false }
        guard let body else { return true }
        let sent = redaction.body(
            request.httpBody ?? Data(), contentType: request.value(forHTTPHeaderField: "Content-Type"))
        return Self.canonical(sent) == body
    }

    /// `body` as text to compare: JSON with its keys sorted, since an encoder's key order is not
    /// fixed from one run to the next; any other body as it is.
    private static func canonical(_ body: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed),
            let sorted = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return String(decoding: body, as: UTF8.self) }
        return String(decoding: sorted, as: UTF8.self)
    }
}
