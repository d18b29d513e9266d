import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The snippets of the Migrating article's map of the older libraries' APIs, verbatim
// (ReadmeSnippetsTests checks that each block appears in a compiled file), and tests that each one
// does what its row says.

struct Brewer: Codable, Sendable, Equatable {
    let name: String
}

/// ELWebService's `CustomSession`: the same one method, given a `URLRequest` (not a
/// `URLRequestEncodable`) and returning a `SessionTask` (not a `DataTask`).
struct TaggingSession: Session {
    var base: any Session = URLSession.shared

    func dataTask(
        for request: URLRequest,
        completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> any SessionTask {
        var request = request
        request.setValue("brew-app", forHTTPHeaderField: "X-Client")
        return base.dataTask(for: request, completion: completion)
    }
}

struct ListBrewersRequest: Request {
    typealias Response = [Brewer]

    func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        // ELWebService resolved a path with URL(string:relativeTo:), so "/brewers" replaced the
        // base URL's path; appendingPathComponent("brewers") appends to it instead.
        guard let url = URL(string: "/brewers", relativeTo: baseURL) else { throw URLError(.badURL) }
        return NetworkRequest(url: url)
    }
}

struct AddBrewerRequest: Request {
    typealias Response = Void
    let name: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        // was: service.POST("/brewers").setParameters(["name": name], encoding: .JSON); with the
        // default .Percent encoding the body is .form(["name": name])
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("brewers"), body: .json(["name": name]))
    }
}

struct FindBrewersRequest: Request {
    typealias Response = [Brewer]
    let state: String

    func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        // was: client.GET("/brewers", parameters: ["state": state], options: [
        //     .Header("beer-client", "iOS"), .CachePolicy(.ReloadIgnoringLocalCacheData)])
        var request = NetworkRequest(url: baseURL.appendingPathComponent("brewers"))
        try request.addQueryParameters(["state": state])
        // ELWebService: .setHeaderValue("iOS", forName: "beer-client")
        request.headers["beer-client"] = "iOS"
        request.cachePolicy = .reloadIgnoringLocalCacheData
        return request
    }
}

/// What the brewers endpoint answered when it was not a list of brewers.
enum BrewerListError: Error {
    case notAList
}

struct BrewerNamesRequest: Request {
    typealias Response = [String]

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("brewers"))
    }

    // was: responseJSON { json, response in … }, with `json` an untyped Any. The JSON is read
    // here and the send returns a typed value, since a response must be Sendable.
    func response(from data: Data, with decoder: JSONDecoder) throws -> [String] {
        guard let brewers = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            // was: return .Failure(BrewerListError.notAList)
            throw BrewerListError.notAList
        }
        return brewers.compactMap { $0["name"] as? String }
    }
}

/// The brewers' names, or none when the endpoint did not answer with a list.
func brewerNames(from network: any Network) async throws -> [String] {
    do {
        return try await network.send(BrewerNamesRequest())
    } catch NetworkError.decodingFailed(is BrewerListError, _) {
        // An error thrown while decoding arrives wrapped, with the response.
        return []
    }
}

struct BrewerRequest: Request {
    typealias Response = Brewer
    let id: Int

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("brewers/\(id)"))
    }
}

/// What a `@Sendable` closure hands it, from any thread.
final class Collected<Element: Sendable>: @unchecked Sendable {  // every access under `lock`
    private let lock = NSLock()
    private var items: [Element] = []

    func append(_ item: Element) {
        lock.withLock { items.append(item) }
    }

    var all: [Element] {
        lock.withLock { items }
    }
}

/// ELWebService's `ServicePassthroughDelegate`, as actions: the network tells them about every send.
struct RequestLogger: RequestBeganAction, ResponseBeganAction, RequestFailedAction {
    let write: @Sendable (String) -> Void

    // was: requestSent(request:)
    func requestBegan(_ request: NetworkRequest) {
        write("Sending request: \(request.method) \(request.url.path)")
    }

    // was: responseReceived(response:data:request:error:) with a response
    func responseBegan(request: NetworkRequest, response: NetworkResponse) {
        write("Received response: \(response.statusCode)")
    }

    // was: responseReceived(response:data:request:error:) with an error
    func requestFailed(_ request: NetworkRequest, error: any Error) {
        write("Received error: \(error)")
    }
}

struct BrewCatalogRequest: StorableRequest {
    typealias Response = [Brew]

    // was: identificatorForRawStorage (WebServiceRequestRawStorage). Without it, the key is the
    // method, the URL with its query, and the Accept header.
    func storageKey(for request: NetworkRequest) -> String {
        "brew-catalog"
    }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("catalog"))
    }
}

/// Shows the stored catalog at once, if there is one, then the network's.
func showCatalog(
    from network: any Network, store: any ResponseStore, show: ([Brew], _ isStored: Bool) -> Void
) async throws {
    // was: performRequest(request, includeResponseStorage: true), answered through the delegate's
    // webServiceResponse(request:isStorageRequest:response:)
    for try await update in network.storedThenFresh(BrewCatalogRequest(), storage: store) {
        show(update.value, update.source == .store)
    }
}

@Suite("Migrating: the map of the older libraries' APIs")
struct ReadmeMigrationMapTests {
    private static let baseURL = URL(string: "https://api.example.com/v1/")!

    @Test("a session of your own goes in when the network is made; a leading / replaces the base URL's path")
    func sessionAndPathResolution() async throws {
        let baseURL = Self.baseURL

        let session = MockSession()
        // was: session.addStub(MockResponse(statusCode: 200, json: [["name": "Long Trail"]]))
        session.stub(with: MockResponse(statusCode: 200, jsonObject: [["name": "Long Trail"]]))
        // was: service.session = TaggingSession() (ELWebService), client.dataTaskSource = … (Swallow)
        let network = URLSessionNetwork(
            configuration: NetworkConfiguration(baseURL: baseURL), session: TaggingSession(base: session))

        #expect(try await network.send(ListBrewersRequest()) == [Brewer(name: "Long Trail")])
        #expect(try await network.send(FindBrewersRequest(state: "VT")) == [Brewer(name: "Long Trail")])
        let sent = session.recordedRequests
        try #require(sent.count == 2)
        #expect(sent[0].url?.absoluteString == "https://api.example.com/brewers")
        #expect(sent[1].url?.path == "/v1/brewers")
        #expect(sent.allSatisfy { $0.value(forHTTPHeaderField: "X-Client") == "brew-app" })
    }

    @Test("parameters, a header and a cache policy as Swallow's options set them; a + in a query value is %2B")
    func parametersHeadersAndCachePolicy() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: [[String: Any]]()))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: Self.baseURL), session: session)

        _ = try await network.send(FindBrewersRequest(state: "new york+"))
        try await network.send(AddBrewerRequest(name: "Trashboat Brewing"))

        let sent = session.recordedRequests
        try #require(sent.count == 2)
        let query = sent[0].url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.percentEncodedQuery }
        #expect(query == "state=new%20york%2B")
        #expect(sent[0].value(forHTTPHeaderField: "beer-client") == "iOS")
        #expect(sent[0].cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(sent[1].httpMethod == "POST")
        #expect(sent[1].value(forHTTPHeaderField: "Content-Type") == "application/json")
        let body = try #require(sent[1].httpBody)
        #expect(try JSONDecoder().decode([String: String].self, from: body) == ["name": "Trashboat Brewing"])
    }

    @Test("untyped JSON is read in the request; an error thrown there arrives in decodingFailed, with the response")
    func untypedJSONAndAppErrors() async throws {
        let list = MockSession()
        list.stub(with: MockResponse(jsonObject: [["name": "Long Trail"], ["city": "Burlington"]]))
        let listing = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: Self.baseURL), session: list)
        #expect(try await brewerNames(from: listing) == ["Long Trail"])

        let object = MockSession()
        object.stub(with: MockResponse(statusCode: 200, jsonObject: ["name": "Long Trail"]))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: Self.baseURL), session: object)
        #expect(try await brewerNames(from: network) == [])

        let error = await #expect(throws: NetworkError.self) { try await network.send(BrewerNamesRequest()) }
        guard case .decodingFailed(let underlying, let response)? = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(underlying is BrewerListError)
        #expect(response.statusCode == 200)
    }

    @Test("a FakeNetwork stub computes its answer from the request, after a delay")
    func computedStub() async throws {
        let fake = FakeNetwork()
        // was: a MockableDataTaskResult (ELWebService), or a WebServiceMockRequesting's timeWait and
        // responseHandler (WebServiceSwift): an answer made from the request, after a delay
        fake.stub(BrewerRequest.self, delay: .milliseconds(20)) { request in
            Brewer(name: "no. \(request.id)")
        }

        #expect(try await fake.send(BrewerRequest(id: 7)) == Brewer(name: "no. 7"))
        #expect(fake.sentRequests(of: BrewerRequest.self).map(\.id) == [7])
    }

    @Test("actions see every send, as a passthrough delegate did; the metrics handler hears of each")
    func passthroughAndMetrics() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: [["name": "Long Trail"]]))
        session.stub(.pathSuffix("/offline"), with: .failure(.notConnectedToInternet))
        let baseURL = Self.baseURL

        let responseTimes = Collected<Duration>()
        let lines = Collected<String>()
        var configuration = NetworkConfiguration(baseURL: baseURL)
        // was: ServicePassthroughDelegate's didFinishCollectingTaskMetrics, and metricsCollected on one task
        configuration.metricsHandler = { metrics in
            responseTimes.append(metrics.timings.total)
        }
        let network = URLSessionNetwork(configuration: configuration, session: session)
        // was: WebService(baseURLString:passthroughDelegate: logger), which held the logger weakly
        network.add(action: RequestLogger { lines.append($0) })

        _ = try await network.send(ListBrewersRequest())
        await #expect(throws: NetworkError.self) {
            try await network.send(NetworkRequest(url: baseURL.appendingPathComponent("offline")))
        }

        let logged = lines.all
        try #require(logged.count == 4, "\(logged)")
        #expect(
            logged[0...2] == [
                "Sending request: GET /brewers", "Received response: 200", "Sending request: GET /v1/offline",
            ])
        #expect(logged[3].hasPrefix("Received error: "))
        try await waitUntil { responseTimes.all.count == 2 }
    }

    @Test("completion handlers are called on the queue the configuration names")
    func completionQueue() {
        let baseURL = Self.baseURL
        var configuration = NetworkConfiguration(baseURL: baseURL)
        // Swallow called handlers on the main thread unless told otherwise; here a completion
        // handler runs on whichever thread the send ended on unless the queue is named.
        configuration.completionQueue = .main

        let network = URLSessionNetwork(configuration: configuration, session: MockSession())
        // By label: on Linux each read of `DispatchQueue.main` makes a new object for the same queue.
        #expect(network.completionQueue?.label == DispatchQueue.main.label)
    }

    @Test("stored then fresh: the stored value first, even when the network answers at once")
    func storedThenFresh() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: [["name": "porter"]]))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: Self.baseURL), session: session)
        let store = InMemoryResponseStore()
        var shown: [String] = []

        for _ in 0..<2 {
            try await showCatalog(from: network, store: store) { brews, isStored in
                shown.append((isStored ? "stored " : "fresh ") + brews.map(\.name).joined())
            }
        }

        #expect(shown == ["fresh porter", "stored porter", "fresh porter"])
        #expect(await store.storedResponse(for: "brew-catalog") != nil)
        #expect(session.recordedRequests.count == 2)
    }

    @Test("a FakeNetwork value stub answers a storage send without storing; a raw response is stored")
    func valueStubsAndStorage() async throws {
        let fake = FakeNetwork()
        let store = InMemoryResponseStore()
        let catalog = Data(#"[{"name":"porter"}]"#.utf8)
        fake.stub(BrewCatalogRequest.self, with: [Brew(name: "stout")])

        let answered = try await fake.send(BrewCatalogRequest(), storage: store, policy: .networkOnly)
        #expect(answered == StoredValue(value: [Brew(name: "stout")], source: .network))
        #expect(store.count == 0)

        // A value stub answers a storage send but has no bytes to store; a raw response is stored.
        fake.stub(
            BrewCatalogRequest.self,
            response: NetworkResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: catalog))

        _ = try await fake.send(BrewCatalogRequest(), storage: store, policy: .networkOnly)
        #expect(store.count == 1)
        #expect(try await fake.storedValue(for: BrewCatalogRequest(), in: store)?.value == [Brew(name: "porter")])
    }

    @Test("invalidate() cancels the sends in flight and refuses later ones")
    func invalidate() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: longDelay))
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: Self.baseURL), session: session)
        let inFlight = Task { try await network.send(AddBrewerRequest(name: "Trashboat Brewing")) }
        try await waitUntil { session.recordedRequests.count == 1 }

        // was: letting the WebService go, which cancelled its requests
        network.invalidate()

        await #expect { try await inFlight.value } throws: { ($0 as? NetworkError)?.isCancellation == true }
        await #expect { try await network.send(AddBrewerRequest(name: "Long Trail")) } throws: { error in
            guard case .invalidated? = error as? NetworkError else { return false }
            return true
        }
        #expect(session.recordedRequests.count == 1)
    }
}
