import ECNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``MockSession`` answers to a request: a status, headers and body, or a transport error,
/// after an optional delay.
public struct MockResponse: Sendable {
    enum Outcome: Sendable {
        case response(statusCode: Int, headers: HTTPHeaders, body: Data)
        case failure(any Error)
        case brokenBody(statusCode: Int, headers: HTTPHeaders, body: Data, error: any Error)
    }

    let outcome: Outcome
    /// How long the session waits before answering; cancelling the task ends the wait.
    public var delay: Duration

    /// A response with a status, an optional body and headers.
    public init(statusCode: Int = 200, data: Data = Data(), headers: HTTPHeaders = [:], delay: Duration = .zero) {
        self.outcome = .response(statusCode: statusCode, headers: headers, body: data)
        self.delay = delay
    }

    /// A response whose body is `value` encoded as JSON, with `Content-Type: application/json`.
    /// A value that cannot be encoded makes the stub answer with that encoding error.
    public init(
        statusCode: Int = 200,
        json value: some Encodable,
        encoder: JSONEncoder = JSONEncoder(),
        headers: HTTPHeaders = [:],
        delay: Duration = .zero
    ) {
        do {
            self.init(statusCode: statusCode, jsonData: try encoder.encode(value), headers: headers, delay: delay)
        } catch {
            self.init(failure: error, delay: delay)
        }
    }

    /// A response whose body is a JSON object or array (`["id": 1]`, `[["id": 1]]`), with
    /// `Content-Type: application/json`. An object that is not valid JSON makes the stub answer
    /// with the serialization error.
    public init(statusCode: Int = 200, jsonObject: Any, headers: HTTPHeaders = [:], delay: Duration = .zero) {
        guard JSONSerialization.isValidJSONObject(jsonObject),
            let data = try? JSONSerialization.data(withJSONObject: jsonObject, options: [.sortedKeys])
        else {
            self.init(failure: MockSessionError.invalidJSONObject(String(describing: jsonObject)), delay: delay)
            return
        }
        self.init(statusCode: statusCode, jsonData: data, headers: headers, delay: delay)
    }

    /// A response whose body breaks off after `data` with `error`, as a connection that drops
    /// mid-body does: a streamed send (`stream`, `download`, Server-Sent Events) reads the head and
    /// `data`, then fails with `error`; a send that gathers the body fails with `error`.
    ///
    /// ```swift
    /// session.stub(.path("/files/report.pdf"), with: MockResponse(
    ///     statusCode: 200, data: firstHalf, headers: ["ETag": "\"v1\""],
    ///     breakingWith: URLError(.networkConnectionLost)))
    /// ```
    public init(
        statusCode: Int = 200, data: Data, headers: HTTPHeaders = [:], breakingWith error: any Error,
        delay: Duration = .zero
    ) {
        self.outcome = .brokenBody(statusCode: statusCode, headers: headers, body: data, error: error)
        self.delay = delay
    }

    /// A transport failure, such as `URLError(.notConnectedToInternet)`.
    public init(failure error: any Error, delay: Duration = .zero) {
        self.outcome = .failure(error)
        self.delay = delay
    }

    /// A transport failure with a `URLError` code.
    public static func failure(_ code: URLError.Code, delay: Duration = .zero) -> MockResponse {
        MockResponse(failure: URLError(code), delay: delay)
    }

    private init(statusCode: Int, jsonData: Data, headers: HTTPHeaders, delay: Duration) {
        var headers = headers
        if !headers.contains(name: "Content-Type") {
            headers["Content-Type"] = "application/json"
        }
        self.init(statusCode: statusCode, data: jsonData, headers: headers, delay: delay)
    }
}
