import Foundation
import Testing

@testable import ECNetworking

/// `NetworkRequest`, `NetworkResponse` and `TransportRequest` keep their fields in one shared object (`CopyOnWrite`):
/// these tests change one copy in every way a caller can and check that no other copy sees it,
/// including a copy held by another task while the change happens.
@Suite("Copy-on-write requests and responses keep value semantics")
struct CopyOnWriteValueTests {
    private let url = URL(string: "https://api.example.com/v1/users")!

    @Test("changing a copy of a request, field by field, leaves the original as it was")
    func requestCopiesAreIndependent() {
        var original = NetworkRequest(url: url)
        original.headers["Accept"] = "application/json"
        original.customProperties["note"] = "original"
        var copy = original
        copy.headers.add(name: "Authorization", value: "Bearer planted-secret")
        copy.method = .post
        copy.url = URL(string: "https://other.example.com/")!
        copy.body = .text("hello")
        copy.queryItems = [URLQueryItem(name: "page", value: "2")]
        copy.timeout = .seconds(5)
        copy.cachePolicy = .reloadIgnoringLocalCacheData
        copy.acceptableStatusCodes = [200]
        copy.validatesContentType = false
        copy.customProperties["note"] = "copy"

        #expect(original.headers["Authorization"] == nil)
        #expect(original.headers.count == 1)
        #expect(original.method == .get)
        #expect(original.url == url)
        #expect(original.body == nil)
        #expect(original.queryItems.isEmpty)
        #expect(original.timeout == nil)
        #expect(original.cachePolicy == nil)
        #expect(original.acceptableStatusCodes == nil)
        #expect(original.validatesContentType == nil)
        #expect(original.customProperties["note"] as? String == "original")

        #expect(copy.headers["Authorization"] == "Bearer planted-secret")
        #expect(copy.method == .post)
        #expect(copy.queryItems.count == 1)
        #expect(copy.customProperties["note"] as? String == "copy")
    }

    @Test("changing a copy of a transport request, field by field, leaves the original as it was")
    func transportRequestCopiesAreIndependent() {
        let original = TransportRequest(
            method: .get, url: url, headers: ["Accept": "application/json"], timeout: .seconds(30),
            maximumResponseSize: 1_024)
        var copy = original
        copy.method = .put
        copy.url = URL(string: "https://other.example.com/")!
        copy.headers.add(name: "Authorization", value: "Bearer planted-secret")
        copy.body = .bytes(Data("hello".utf8))
        copy.timeout = nil
        copy.maximumResponseSize = nil
        copy.cachePolicy = .reloadIgnoringLocalCacheData

        #expect(original.method == .get)
        #expect(original.url == url)
        #expect(original.headers["Authorization"] == nil)
        #expect(original.headers.count == 1)
        #expect(original.body == nil)
        #expect(copy.body?.length == 5)
        #expect(original.timeout == .seconds(30))
        #expect(original.maximumResponseSize == 1_024)
        #expect(original.cachePolicy == nil)

        #expect(copy.method == .put)
        #expect(copy.headers["Authorization"] == "Bearer planted-secret")
        #expect(copy.maximumResponseSize == nil)
    }

    @Test("changing the original after copying leaves the copy as it was")
    func originalChangesDoNotReachCopies() {
        var original = NetworkRequest(url: url)
        let copy = original
        original.headers.add(name: "X-Trace", value: "1")
        #expect(copy.headers.isEmpty)
        #expect(original.headers["X-Trace"] == "1")
    }

    @Test("changing a copy of a response leaves the original, and its request, as they were")
    func responseCopiesAreIndependent() {
        var request = NetworkRequest(url: url)
        request.headers["Accept"] = "application/json"
        let original = NetworkResponse(
            statusCode: 200, headers: ["Content-Type": "application/json"], body: Data("[]".utf8), url: url,
            request: request)
        var copy = original
        copy.statusCode = 500
        copy.headers.add(name: "Retry-After", value: "1")
        copy.body = Data("{}".utf8)
        copy.request?.headers["Accept"] = "text/plain"
        copy.timings.total = .seconds(1)

        #expect(original.statusCode == 200)
        #expect(original.headers["Retry-After"] == nil)
        #expect(original.body == Data("[]".utf8))
        #expect(original.request?.headers["Accept"] == "application/json")
        #expect(original.timings.total == .zero)
        #expect(copy.request?.headers["Accept"] == "text/plain")
        #expect(request.headers["Accept"] == "application/json")
    }

    @Test("copies changed on many tasks at once each see only their own change")
    func concurrentChangesStayApart() async {
        var shared = NetworkRequest(url: url)
        shared.headers["Accept"] = "application/json"
        let original = shared
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    var mine = original
                    mine.headers.add(name: "X-Index", value: String(index))
                    mine.customProperties["index"] = index
                    return mine.headers.values(for: "X-Index") == [String(index)]
                        && mine.customProperties["index"] as? Int == index
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0 })
        #expect(original.headers.count == 1)
        #expect(original.customProperties.isEmpty)
    }
}
