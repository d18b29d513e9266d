import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("HTTPMethod")
struct HTTPMethodTests {
    private static let standardMethods: [(HTTPMethod, String)] = [
        (.get, "GET"), (.head, "HEAD"), (.options, "OPTIONS"), (.patch, "PATCH"),
        (.post, "POST"), (.put, "PUT"), (.delete, "DELETE"),
    ]

    @Test("Standard methods have their wire names", arguments: standardMethods)
    func standardRawValues(method: HTTPMethod, name: String) {
        #expect(method.rawValue == name)
        #expect(method.description == name)
        #expect(HTTPMethod(rawValue: name) == method)
    }

    @Test("A custom method from a string literal keeps its name and case")
    func customMethods() {
        let propfind: HTTPMethod = "PROPFIND"
        #expect(propfind.rawValue == "PROPFIND")
        #expect(propfind == HTTPMethod(rawValue: "PROPFIND"))
        // HTTP methods are case-sensitive.
        #expect(HTTPMethod(rawValue: "get") != .get)
        #expect(HTTPMethod(rawValue: "get").rawValue == "get")
    }

    @Test(
        "Idempotent methods per RFC 9110",
        arguments: [
            (HTTPMethod.get, true), (.head, true), (.options, true), (.put, true), (.delete, true),
            ("TRACE", true), (.post, false), (.patch, false), ("CONNECT", false), ("get", false),
        ] as [(HTTPMethod, Bool)]
    )
    func idempotency(method: HTTPMethod, idempotent: Bool) {
        #expect(method.isIdempotent == idempotent)
    }

    @Test("Each standard method goes on the wire as its name", arguments: standardMethods.map(\.0))
    func methodOnTheWire(method: HTTPMethod) async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)

        _ = try await network.send(NetworkRequest(method: method, url: testBaseURL.appendingPathComponent("items")))

        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.httpMethod == method.rawValue)
    }

    @Test("A custom method goes on the wire unchanged")
    func customMethodOnTheWire() async throws {
        let session = MockSession()
        session.stub(.method("PROPFIND"), with: MockResponse(statusCode: 207))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)

        let response = try await network.send(
            NetworkRequest(method: "PROPFIND", url: testBaseURL.appendingPathComponent("dav")))

        #expect(response.statusCode == 207)
        #expect(session.recordedRequests.map(\.httpMethod) == ["PROPFIND"])
    }

    @Test(
        "A method that is not an HTTP token is rejected before anything is sent",
        arguments: ["GE T", "", "GET\r\nX-Evil: 1", "GE(T", "GET\n", "PÖST"]
    )
    func invalidMethodIsRejected(name: String) async throws {
        let session = MockSession()
        session.stub(.any, with: MockResponse(statusCode: 200))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)

        let request = NetworkRequest(method: HTTPMethod(rawValue: name), url: testBaseURL.appendingPathComponent("x"))
        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(request)
        }

        guard case .invalidRequest(let reason) = error else {
            Issue.record("Expected invalidRequest, got \(error)")
            return
        }
        #expect(reason.contains("method"))
        #expect(session.recordedRequests.isEmpty)
    }
}
