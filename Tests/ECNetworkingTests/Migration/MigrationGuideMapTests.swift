import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

/// What the migration guide's map of the older libraries' APIs says about behaviour that no other
/// test pins down: a released network and a read from storage without a request.
@Suite("Migration: the map of the older libraries' APIs says what the library does")
struct MigrationGuideMapTests {
    /// An offline-capable endpoint, as a WebServiceSwift request with raw storage becomes.
    private struct SettingsRequest: StorableRequest {
        typealias Response = [String: String]

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("settings"))
        }
    }

    /// A request whose URL cannot be built, to see what a read from storage does with the error.
    private struct UnbuildableRequest: StorableRequest {
        typealias Response = [String: String]

        func buildRequest(with baseURL: URL) throws -> NetworkRequest {
            throw MarkerError(id: 42)
        }
    }

    @Test(
        "ELWebService's resolution of a leading / and appendingPathComponent agree without a base path, not with one"
    )
    func pathResolution() throws {
        let hostOnly = URL(string: "https://api.example.com/")!
        let withPath = URL(string: "https://api.example.com/v1/")!
        func resolved(_ base: URL) throws -> String {
            try #require(URL(string: "/brewers", relativeTo: base)).absoluteString
        }

        #expect(try resolved(hostOnly) == "https://api.example.com/brewers")
        #expect(hostOnly.appendingPathComponent("brewers").absoluteString == "https://api.example.com/brewers")
        #expect(try resolved(withPath) == "https://api.example.com/brewers")
        #expect(withPath.appendingPathComponent("brewers").absoluteString == "https://api.example.com/v1/brewers")
    }

    @Test("a network released while a send is in flight cancels nothing: the send ends with its answer")
    func releasedNetworkFinishesItsSends() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: ["theme": "dark"], delay: .milliseconds(200)))
        let results = Log<Result<[String: String], any Error>>()
        weak var released: URLSessionNetwork?
        do {
            let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)
            released = network
            // The completion-handler send holds no reference the caller keeps; WebServiceSwift's
            // service, let go here, cancelled its requests.
            network.send(SettingsRequest()) { results.append($0) }
        }
        try await waitUntil { session.recordedRequests.count == 1 }

        try await waitUntil { results.all.count == 1 }
        #expect(try results.all.first?.get() == ["theme": "dark"])
        #expect(session.cancelledRequestCount == 0)
        // Once its send has ended, nothing holds the network; its task lets go a moment after the
        // completion handler ran.
        let deadline = ContinuousClock.now + promptBound
        while released != nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(released == nil)
    }

    @Test("storedValue(for:in:) reads nothing stored as nil, and throws only the request's own build error")
    func storedValueErrors() async throws {
        let session = MockSession()
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: testBaseURL), session: session)
        let store = InMemoryResponseStore()

        #expect(try await network.storedValue(for: SettingsRequest(), in: store) == nil)
        await #expect(throws: MarkerError(id: 42)) {
            _ = try await network.storedValue(for: UnbuildableRequest(), in: store)
        }
        #expect(session.recordedRequests.isEmpty)
    }
}
