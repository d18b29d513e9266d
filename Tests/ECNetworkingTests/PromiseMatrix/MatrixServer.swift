import ECNetworking
import Foundation
import TestSupport

/// The real server every cell of the promise matrix talks to, over TCP on 127.0.0.1: one route per
/// kind of peer, chosen by the request's first path segment. A route answers an event-stream
/// request (`Accept: text/event-stream`) with an event stream, any other with JSON.
final class MatrixServer: Sendable {
    /// The routes, as the first path segment.
    enum Route: String, Sendable {
        /// 200 with one JSON object or one event, and a `Set-Cookie` holding ``MatrixSecrets/cookie``.
        case ok
        /// 401 with ``MatrixSecrets/responseToken`` in the body, ``MatrixSecrets/cookie`` in a cookie,
        /// ``MatrixSecrets/locationToken`` in the `Location`'s query and ``MatrixSecrets/linkPassword``
        /// in the userinfo of a `Link`'s URL.
        case fail
        /// 200 with ``MatrixSecrets/responseToken`` as the `access_token` of a JSON object, or of
        /// the JSON one event carries: a body every way reads to its end, streamed ones included.
        case token
        /// A head and the first bytes at once, the rest only once ``MatrixServer/openGate()`` is called.
        case gated
        /// Nothing at all, until the client goes away.
        case silent
        /// The request read whole, then the connection closed without a byte of answer.
        case unanswered
        /// Bytes that are not HTTP.
        case garbage
        /// A head announcing 1,000 bytes, ten of them, then a reset connection.
        case truncated
        /// 200 and a body without end (for an event stream, one event whose `data:` never ends).
        case endless
        /// 500 and an error page without end.
        case endlessError
        /// A `103 Early Hints` and a `100 Continue`, interim answers a server may send before its
        /// final one, then the final answer of ``ok``, with a header of its own (`X-Final`).
        case interim
    }

    let server: LoopbackHTTPServer
    private let gate = DispatchSemaphore(value: 0)

    init() throws {
        let gate = self.gate
        server = try LoopbackHTTPServer { request in
            let isEventStream = request.header("Accept")?.contains("text/event-stream") ?? false
            let segment = request.path.split(separator: "/").first.map { String($0.prefix { $0 != "?" }) } ?? ""
            return Self.reply(to: Route(rawValue: segment) ?? .ok, isEventStream: isEventStream, gate: gate)
        }
    }

    /// A request for `route` carrying the planted secrets (see ``MatrixSecrets/request(_:on:)``).
    func request(_ route: Route) -> NetworkRequest {
        MatrixSecrets.request(route, on: server.baseURL)
    }

    /// Lets every ``Route/gated`` answer finish.
    func openGate() {
        for _ in 0..<16 { gate.signal() }
    }

    func stop() {
        openGate()
        server.stop()
    }

    private static func reply(to route: Route, isEventStream: Bool, gate: DispatchSemaphore) -> LoopbackHTTPServer.Reply
    {
        let contentType = isEventStream ? "text/event-stream" : "application/json"
        switch route {
        case .ok:
            let body = isEventStream ? "data: one\n\n" : #"{"ok":true}"#
            return .response(
                status: 200, headers: ["Content-Type": contentType, "Set-Cookie": "session=\(MatrixSecrets.cookie)"],
                body: Data(body.utf8))
        case .token:
            let json = #"{"ok":true,"access_token":"\#(MatrixSecrets.responseToken)"}"#
            return .response(
                status: 200, headers: ["Content-Type": contentType],
                body: Data((isEventStream ? "data: \(json)\n\n" : json).utf8))
        case .fail:
            return .response(
                status: 401,
                headers: [
                    "Content-Type": "application/json", "Set-Cookie": "session=\(MatrixSecrets.cookie)",
                    "Location": "/login?next=1&access_token=\(MatrixSecrets.locationToken)",
                    "Link": "<http://ada:\(MatrixSecrets.linkPassword)@127.0.0.1/help?page=1>; rel=\"help\"",
                ],
                body: Data(#"{"error":"expired","access_token":"\#(MatrixSecrets.responseToken)"}"#.utf8))
        case .gated:
            let body = isEventStream ? "data: one\n\n" : #"{"ok":true}"#
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n"
            return .raw(Data((head + body.prefix(3)).utf8), gate: gate, rest: Data(body.dropFirst(3).utf8))
        case .silent:
            return .silence
        case .unanswered:
            return .raw(Data())
        case .garbage:
            return .raw(Data("SSH-2.0-OpenSSH_9.6 not http at all\r\n\u{0}\u{1}\u{2}\r\n\r\n".utf8))
        case .truncated:
            return .reset(
                Data("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: 1000\r\n\r\ndata: one\n".utf8))
        case .endless:
            // An event stream's chunk is `data:` lines without the blank line that ends an event.
            let line =
                isEventStream
                ? "data: " + String(repeating: "e", count: 1_000) + "\n" : String(repeating: "e", count: 1_024)
            return .endless(
                status: 200, headers: ["Content-Type": contentType],
                chunk: Data(String(repeating: line, count: 64).utf8))
        case .interim:
            let body = isEventStream ? "data: one\n\n" : #"{"ok":true}"#
            let answer =
                "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
                + "HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nX-Final: yes\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
            return .raw(Data(answer.utf8))
        case .endlessError:
            return .endless(
                status: 500, headers: ["Content-Type": "text/html"],
                chunk: Data(String(repeating: "<p>error</p>", count: 5_000).utf8))
        }
    }
}

/// Secrets each cell plants where a user's would be, then searches for in everything it can see.
enum MatrixSecrets {
    static let authorization = "MATRIX-AUTH-7f3a"
    static let queryToken = "MATRIX-QUERY-51c9"
    static let bodyPassword = "MATRIX-BODY-0d2e"
    static let cookie = "MATRIX-COOKIE-9b84"
    static let responseToken = "MATRIX-RESPONSE-a6e1"
    static let locationToken = "MATRIX-LOCATION-3c7d"
    static let linkPassword = "MATRIX-LINK-e25f"

    static let all = [authorization, queryToken, bodyPassword, cookie, responseToken, locationToken, linkPassword]

    /// A request for `route` of `baseURL` with ``authorization`` in its `Authorization` header and
    /// ``queryToken`` as its `access_token`.
    static func request(_ route: MatrixServer.Route, on baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            headers: ["Authorization": "Bearer \(authorization)"],
            url: URL(string: "\(baseURL.absoluteString)/\(route.rawValue)?page=1&access_token=\(queryToken)")!)
    }

    /// The secrets `text` shows.
    static func shown(in text: String) -> [String] {
        all.filter { text.contains($0) }
    }
}
