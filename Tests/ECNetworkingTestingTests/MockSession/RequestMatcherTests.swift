import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

@Suite("RequestMatcher picks the requests a MockSession stub answers")
struct RequestMatcherTests {
    private func get(_ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> NetworkRequest {
        NetworkRequest(headers: headers, url: testBaseURL.appendingPathComponent(path), queryItems: query)
    }

    @Test("method")
    func method() async {
        let session = MockSession()
        session.stub(.method(.post), with: named("post"))
        let network = makeNetwork(session: session)
        #expect(await network.answer(NetworkRequest(method: .post, url: testBaseURL)) == "post")
        #expect(await network.answer(NetworkRequest(method: .get, url: testBaseURL)) == "no stub")
    }

    @Test("path matches the whole path, base URL path included")
    func path() async {
        let session = MockSession()
        session.stub(.path("/v1/books"), with: named("books"))
        let network = makeNetwork(session: session)
        #expect(await network.answer(get("books")) == "books")
        #expect(await network.answer(get("books/1")) == "no stub")
    }

    @Test("pathSuffix ignores the base URL's path")
    func pathSuffix() async {
        let session = MockSession()
        session.stub(.pathSuffix("/books/1"), with: named("book 1"))
        let network = makeNetwork(session: session)
        #expect(await network.answer(get("books/1")) == "book 1")
        #expect(await network.answer(get("books/11/x")) == "no stub")
    }

    @Test("queryItem by name, or by name and value")
    func queryItem() async {
        let session = MockSession()
        session.stub(.queryItem(name: "page"), with: named("any page"))
        session.stub(.queryItem(name: "page", value: "2"), with: named("page 2"))
        let network = makeNetwork(session: session)
        #expect(await network.answer(get("books", query: [URLQueryItem(name: "page", value: "2")])) == "page 2")
        #expect(await network.answer(get("books", query: [URLQueryItem(name: "page", value: "3")])) == "any page")
        #expect(await network.answer(get("books")) == "no stub")
    }

    @Test("header by name in any case, or by name and value")
    func header() async {
        let session = MockSession()
        session.stub(.header(name: "x-client"), with: named("any client"))
        session.stub(.header(name: "X-Client", value: "ios"), with: named("ios"))
        let network = makeNetwork(session: session)
        #expect(await network.answer(get("a", headers: ["X-Client": "ios"])) == "ios")
        #expect(await network.answer(get("a", headers: ["x-client": "web"])) == "any client")
        #expect(await network.answer(get("a")) == "no stub")
    }

    @Test("a custom closure sees the URLRequest")
    func custom() async {
        let session = MockSession()
        session.stub(RequestMatcher("has a body") { $0.httpBody != nil }, with: named("with body"))
        let network = makeNetwork(session: session)
        #expect(await network.answer(NetworkRequest(method: .post, url: testBaseURL, body: .text("hi"))) == "with body")
        #expect(await network.answer(get("a")) == "no stub")
    }

    @Test("&& matches only when both sides match")
    func and() async {
        let session = MockSession()
        session.stub(.method(.delete) && .pathSuffix("/books/1"), with: named("deleted"))
        let network = makeNetwork(session: session)
        #expect(
            await network.answer(NetworkRequest(method: .delete, url: testBaseURL.appendingPathComponent("books/1")))
                == "deleted")
        #expect(await network.answer(get("books/1")) == "no stub")
        #expect(await network.answer(NetworkRequest(method: .delete, url: testBaseURL)) == "no stub")
    }
}
