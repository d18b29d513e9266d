import Foundation
import Testing

@testable import ECNetworking

@Suite("RedirectFollower: which responses are followed, and what the next request sends")
struct RedirectFollowerTests {
    private let original = URL(string: "https://api.example.com/v1/users")!

    private func follower(_ policy: RedirectPolicy = .default, _ sensitiveData: SensitiveData = .default)
        -> RedirectFollower
    {
        RedirectFollower(policy: policy, redaction: Redaction(sensitiveData))
    }

    private func request(_ method: HTTPMethod = .get, body: TransportRequestBody? = nil) -> TransportRequest {
        TransportRequest(
            method: method, url: original,
            headers: [
                "authorization": "Bearer secret", "X-API-Key": "key", "X-Trace": "trace-1",
                "Content-Type": "application/json",
            ],
            body: body)
    }

    private func redirect(_ status: Int = 302, to location: String) -> TransportResponse {
        TransportResponse(statusCode: status, headers: ["Location": location], url: original)
    }

    private func next(
        _ response: TransportResponse, of request: TransportRequest, with follower: RedirectFollower,
        followed: Int = 0
    ) throws -> TransportRequest? {
        try follower.request(following: response, of: request, originalURL: original, followed: followed)
    }

    @Test("across origins, the sensitive headers go whatever their case; others stay")
    func crossOrigin() throws {
        let follower = follower(.default, SensitiveData(headers: ["AUTHORIZATION", "x-api-key"]))

        let next = try #require(try next(redirect(to: "https://cdn.example.com/a"), of: request(), with: follower))

        #expect(next.url.absoluteString == "https://cdn.example.com/a")
        #expect(next.headers["Authorization"] == nil)
        #expect(next.headers["X-API-Key"] == nil)
        #expect(next.headers["X-Trace"] == "trace-1")
    }

    @Test("an explicit default port is the same origin; a relative Location stays on it")
    func sameOrigin() throws {
        let explicit = try #require(
            try next(redirect(to: "https://api.example.com:443/v2"), of: request(), with: follower()))
        #expect(explicit.headers["Authorization"] == "Bearer secret")

        let relative = try #require(try next(redirect(to: "/v3?page=2"), of: request(), with: follower()))
        #expect(relative.url.absoluteString == "https://api.example.com/v3?page=2")
        #expect(relative.headers["Authorization"] == "Bearer secret")
    }

    @Test("a downgrade from https to http is another origin")
    func schemeDowngrade() throws {
        let next = try #require(
            try next(redirect(to: "http://api.example.com/v1/users"), of: request(), with: follower()))

        #expect(next.headers["Authorization"] == nil)
    }

    @Test("a later hop back to the first origin is compared with the first URL, not the previous hop")
    func comparedWithOriginalURL() throws {
        var elsewhere = request()
        elsewhere.url = URL(string: "https://cdn.example.com/a")!
        elsewhere.headers["Authorization"] = nil
        elsewhere.headers.add(name: "Authorization", value: "Bearer other")

        let next = try #require(try next(redirect(to: "https://evil.example.net/"), of: elsewhere, with: follower()))

        #expect(next.headers["Authorization"] == nil)
    }

    @Test(
        "303, and 301 or 302 after a POST, become a GET without a body",
        arguments: [(303, HTTPMethod.put), (301, .post), (302, .post), (303, .post)])
    func becomesGet(status: Int, method: HTTPMethod) throws {
        let post = request(method, body: .bytes(Data("{}".utf8)))

        let next = try #require(try next(redirect(status, to: "/created"), of: post, with: follower()))

        #expect(next.method == .get)
        #expect(next.body == nil)
        #expect(next.headers["Content-Type"] == nil)
        #expect(next.headers["X-Trace"] == "trace-1")
    }

    @Test("307 and 308 keep the method and the body; 301 keeps a PUT", arguments: [307, 308, 301])
    func keepsMethodAndBody(status: Int) throws {
        let put = request(status == 301 ? .put : .post, body: .bytes(Data("{}".utf8)))

        let next = try #require(try next(redirect(status, to: "/moved"), of: put, with: follower()))

        #expect(next.method == put.method)
        guard case .bytes(let data)? = next.body?.source else {
            Issue.record("the body was dropped")
            return
        }
        #expect(data == Data("{}".utf8))
        #expect(next.headers["Content-Type"] == "application/json")
    }

    // The request went out with its body: `.invalidRequest` would say that nothing was sent, and
    // a caller trusting it could send the POST a second time.
    @Test(
        "a 307 or 308 with a one-shot streamed body fails with bodyNotReplayable carrying the redirect",
        arguments: [307, 308])
    func nonReplayableBody(status: Int) throws {
        let streamed = request(.post, body: .stream(ByteStream(AsyncStream<Data> { $0.finish() })))

        #expect {
            _ = try next(redirect(status, to: "/moved"), of: streamed, with: follower())
        } throws: { error in
            guard case .bodyNotReplayable(let response?, nil) = error as? NetworkError else { return false }
            return response.statusCode == status && response.headers["Location"] == "/moved"
        }
    }

    @Test("a HEAD stays a HEAD through a 303")
    func headStaysHead() throws {
        let next = try #require(try next(redirect(303, to: "/other"), of: request(.head), with: follower()))

        #expect(next.method == .head)
    }

    @Test(
        "a target outside http and https is refused, whatever the policy's limit",
        arguments: ["file:///etc/passwd", "data:text/plain,hello", "ftp://example.com/a", "javascript:alert(1)"])
    func refusedScheme(location: String) throws {
        #expect {
            _ = try next(redirect(to: location), of: request(), with: follower())
        } throws: { error in
            guard case .redirectRefused(let scheme) = error as? NetworkError else { return false }
            return scheme == URL(string: location)?.scheme
        }
    }

    @Test("the limit fails the redirect after maximumRedirects were followed")
    func limit() throws {
        let follower = follower(RedirectPolicy(maximumRedirects: 2))
        #expect(try next(redirect(to: "/a"), of: request(), with: follower, followed: 1) != nil)

        #expect {
            _ = try next(redirect(to: "/a"), of: request(), with: follower, followed: 2)
        } throws: { error in
            guard case .tooManyRedirects(let limit) = error as? NetworkError else { return false }
            return limit == 2
        }
    }

    @Test(
        "final responses: not a redirect status, no Location, or the policy follows none",
        arguments: [
            TransportResponse(statusCode: 200, headers: ["Location": "/a"]),
            TransportResponse(statusCode: 304, headers: ["Location": "/a"]),
            TransportResponse(statusCode: 300, headers: ["Location": "/a"]),
            TransportResponse(statusCode: 302),
        ])
    func finalResponses(response: TransportResponse) throws {
        #expect(try next(response, of: request(), with: follower()) == nil)
    }

    @Test("RedirectPolicy.never returns every 3xx, even one to file:")
    func never() throws {
        #expect(try next(redirect(to: "file:///etc/passwd"), of: request(), with: follower(.never)) == nil)
        #expect(try next(redirect(to: "/a"), of: request(), with: RedirectFollower.disabled) == nil)
    }
}
