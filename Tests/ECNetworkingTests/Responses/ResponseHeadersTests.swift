import Foundation
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response's headers as a `URLSession` delivered them, read from the `HTTPURLResponse` only when
/// needed (with FoundationNetworking): every read and change must give what the fields read at
/// once would give.
@Suite("Response headers read from an HTTPURLResponse")
struct ResponseHeadersTests {
    private let response = HTTPURLResponse(
        url: URL(string: "https://api.example.com/users")!, statusCode: 200, httpVersion: "HTTP/1.1",
        headerFields: [
            "content-type": "application/json", "ETag": "\"v1\"", "X-Custom": "one", "x-custom": "two",
            "Cache-Control": "max-age=60", "www-authenticate": "Bearer",
        ])!

    /// The same fields, read from the response at once.
    private var eager: HTTPHeaders { HTTPHeaders(HTTPHeaders.fields(of: response)) }

    @Test(
        "a name reads as the fields read at once would give it",
        arguments: [
            "Content-Type", "content-type", "CONTENT-TYPE", "etag", "x-custom", "X-CUSTOM", "cache-control",
            "WWW-Authenticate", "missing", "Ümlaut", "", "x", "X-",
        ])
    func lookup(name: String) {
        let headers = HTTPHeaders(response)
        #expect(headers[name] == eager[name])
        #expect(headers.contains(name: name) == eager.contains(name: name))
        #expect(headers.values(for: name) == eager.values(for: name))
    }

    @Test("the whole list, its count, equality and hash are those of the fields read at once")
    func wholeList() {
        let headers = HTTPHeaders(response)
        #expect(headers.fields == eager.fields)
        #expect(headers.count == 6)
        #expect(headers == eager)
        #expect(headers.hashValue == eager.hashValue)
        #expect(headers.dictionary == eager.dictionary)
        #expect(Array(headers) == eager.fields)
    }

    @Test("the fields come in one order however often the response is read, so headers equal themselves")
    func stableOrder() {
        // FoundationNetworking builds a new dictionary for each read, whose order may differ.
        let first = HTTPHeaders(response)
        let reads = (0..<1_000).map { _ in HTTPHeaders(response) }
        #expect(reads.allSatisfy { $0.fields == first.fields })
        #expect(reads.allSatisfy { $0 == first && $0.hashValue == first.hashValue })
        #expect(first == first)
    }

    @Test("a change keeps every field the response had")
    func changes() {
        var added = HTTPHeaders(response)
        added.add(name: "X-Added", value: "1")
        #expect(added.fields == eager.fields + [HTTPHeaders.Field(name: "X-Added", value: "1")])

        var replaced = HTTPHeaders(response)
        replaced["content-type"] = "text/plain"
        var expected = eager
        expected["content-type"] = "text/plain"
        #expect(replaced == expected)
        #expect(replaced["Content-Type"] == "text/plain")

        var removed = HTTPHeaders(response)
        removed.remove(name: "ETAG")
        #expect(removed["ETag"] == nil)
        #expect(removed.count == 5)
    }

    @Test("a NetworkResponse made from the response reads its headers case-insensitively")
    func networkResponse() {
        let networkResponse = NetworkResponse(response, body: Data())
        #expect(networkResponse.headers["etag"] == "\"v1\"")
        #expect(networkResponse.headers["X-CUSTOM"] == eager["x-custom"])
        #expect(networkResponse.headers == eager)
    }
}
