import Foundation
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLRequest` a `URLSession`-based transport sends for a `TransportRequest`: its method,
/// headers and body, and the cache policy and backstop timeout it is created with.
@Suite("A TransportRequest as a URLRequest")
struct URLRequestFromTransportRequestTests {
    private static let url = URL(string: "https://example.com/items?page=2")!

    @Test("method, URL, headers and body carry over")
    func fieldsCarryOver() throws {
        let request = TransportRequest(
            method: .post, url: Self.url, headers: ["Accept": "application/json", "X-Trace": "7"],
            body: .bytes(Data("{}".utf8)))
        let urlRequest = try URLRequest(request, streamedBody: nil)
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.url == Self.url)
        #expect(urlRequest.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(urlRequest.value(forHTTPHeaderField: "X-Trace") == "7")
        #expect(urlRequest.httpBody == Data("{}".utf8))
    }

    @Test(
        "the timeout becomes a backstop rounded up a second past it; none keeps URLRequest's 60 s",
        arguments: [(Duration?.some(.seconds(5)), 6.0), (.milliseconds(2_500), 4.0), (nil, 60.0)])
    func timeoutBecomesBackstop(timeout: Duration?, expected: TimeInterval) throws {
        let request = TransportRequest(method: .get, url: Self.url, timeout: timeout)
        #expect(try URLRequest(request, streamedBody: nil).timeoutInterval == expected)
    }

    @Test("the cache policy carries over; none keeps the protocol's policy")
    func cachePolicyCarriesOver() throws {
        let ignoring = TransportRequest(method: .get, url: Self.url, cachePolicy: .reloadIgnoringLocalCacheData)
        #expect(try URLRequest(ignoring, streamedBody: nil).cachePolicy == .reloadIgnoringLocalCacheData)
        let unset = TransportRequest(method: .get, url: Self.url)
        #expect(try URLRequest(unset, streamedBody: nil).cachePolicy == .useProtocolCachePolicy)
    }
}
