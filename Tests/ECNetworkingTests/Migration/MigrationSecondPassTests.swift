import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Code ported from the older libraries as the migration guide (Migrating.md) shows it, for the
/// behaviours a port could otherwise change without a word.
@Suite("Migration: ported code behaves as the guide says")
struct MigrationSecondPassTests {
    private struct Settings: Codable, Sendable, Equatable {
        var theme: String
    }

    /// An offline-capable endpoint, as a WebServiceSwift app's stored request becomes.
    private struct SettingsRequest: StorableRequest {
        typealias Response = Settings

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("settings"))
        }
    }

    /// `SettingsRequest` with the partition the guide's WebServiceSwift table names.
    private struct PartitionedSettingsRequest: StorableRequest {
        typealias Response = Settings

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            var request = NetworkRequest(url: baseURL.appendingPathComponent("settings"))
            request.customProperties[StoragePartition.self] = StoragePartition("app")
            return request
        }
    }

    private static let baseURL = URL(string: "https://api.example.com/")!
    private static let settingsBody = Data(#"{"theme":"dark"}"#.utf8)

    @Test(
        "a FakeNetwork made with the app's configuration calls back on its completionQueue, as the app's network does")
    func fakeCallsBackOnTheCompletionQueue() async throws {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "ui")
        queue.setSpecific(key: key, value: "ui")
        // The guide: "set `completionQueue = .main`, as `updateUI` was"; a queue of the test's own
        // stands for main, which a command-line test process does not run.
        var configuration = NetworkConfiguration(baseURL: Self.baseURL)
        configuration.completionQueue = queue
        let fake = FakeNetwork(configuration: configuration)
        fake.stub(SettingsRequest.self, with: Settings(theme: "dark"))

        let calledBackOn = await withCheckedContinuation { continuation in
            fake.send(SettingsRequest()) { _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: key))
            }
        }
        #expect(calledBackOn == "ui")
    }

    @Test(
        "after invalidate() a storage send fails with invalidated, even one the store could answer, on both networks",
        arguments: [false, true])
    func invalidatedStorageSendsFail(isFake: Bool) async throws {
        let store = InMemoryResponseStore(byteBudget: 1024 * 1024)
        let network: any Network
        if isFake {
            let fake = FakeNetwork(baseURL: Self.baseURL)
            fake.stub(
                SettingsRequest.self,
                with: .networkResponse(
                    NetworkResponse(
                        statusCode: 200, headers: ["Content-Type": "application/json"], body: Self.settingsBody)))
            network = fake
        } else {
            let session = MockSession()
            session.stub(
                with: MockResponse(
                    statusCode: 200, data: Self.settingsBody, headers: ["Content-Type": "application/json"]))
            network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: Self.baseURL), session: session)
        }
        let first = try await network.send(SettingsRequest(), storage: store, policy: .storedIfFresh)
        #expect(first.value == Settings(theme: "dark"))

        network.invalidate()
        do {
            _ = try await network.send(SettingsRequest(), storage: store, policy: .storedIfFresh)
            Issue.record("an invalidated network answered from the store")
        } catch NetworkError.invalidated {
        } catch {
            Issue.record("expected invalidated, got \(error)")
        }
        do {
            for try await _ in network.storedThenFresh(SettingsRequest(), storage: store, priority: .normal) {
                Issue.record("an invalidated network streamed the stored answer")
            }
            Issue.record("storedThenFresh of an invalidated network ended without an error")
        } catch NetworkError.invalidated {
        } catch {
            Issue.record("expected invalidated, got \(error)")
        }
    }

    @Test("body: .json(Model?.none), as the guide writes it, sends a JSON null")
    func jsonNull() throws {
        let request = NetworkRequest(method: .put, url: Self.baseURL, body: .json(Settings?.none))
        let encoded = try #require(request.body).encoded(defaultEncoder: JSONEncoder())
        #expect(encoded.data == Data("null".utf8))
        #expect(encoded.contentType == "application/json")
    }

    /// ELWebService's `setQueryParameters(["brew": "12345"], encoder: { url, parameters in … })`,
    /// which rewrote the URL, ported as the guide's table says: the URL is built in `buildRequest`.
    private struct BrewerRequest: Request {
        typealias Response = Void
        let brew: String

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("brewers").appendingPathComponent("brew/\(brew)"))
        }
    }

    @Test("ELWebService's URL-rewriting query encoder becomes a URL built in buildRequest")
    func urlRewritingEncoder() throws {
        let request = BrewerRequest(brew: "12345").buildRequest(with: Self.baseURL)
        #expect(request.url.absoluteString == "https://api.example.com/brewers/brew/12345")
    }

    @Test(
        "a raw body with contentType: nil goes out unlabelled, but for the label FoundationNetworking gives a POST body",
        arguments: TransportKind.allCases)
    func unlabelledRawBody(kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 204) }
        defer { server.stop() }
        try await kind.withNetwork(baseURL: server.baseURL) { network in
            for method in [HTTPMethod.put, .post] {
                _ = try await network.send(
                    NetworkRequest(
                        method: method, url: server.baseURL.appendingPathComponent("label"),
                        body: .data(Data("raw".utf8), contentType: nil)))
            }
        }
        let labels = server.requests.map { $0.header("Content-Type") }
        #expect(labels.first == .some(nil), "PUT was labelled \(String(describing: labels.first))")
        #if canImport(FoundationNetworking)
            // FoundationNetworking adds its own label to a POST body that has none, which a
            // URLSession lets no caller remove (an empty value goes out as an empty header).
            let foundationLabels = kind.isURLSession
        #else
            let foundationLabels = false
        #endif
        let expected: String? = foundationLabels ? "application/x-www-form-urlencoded" : nil
        #expect(labels.last == .some(expected), "POST was labelled \(String(describing: labels.last))")
    }

    @Test(
        "a storage send whose default headers carry an app-wide key bypasses the store, and the log says so once, redacted"
    )
    func appWideKeyBypassesStorage() async throws {
        let session = MockSession()
        session.stub(
            with: MockResponse(statusCode: 200, data: Self.settingsBody, headers: ["Content-Type": "application/json"]))
        let lines = Log<String>()
        var configuration = NetworkConfiguration(baseURL: Self.baseURL)
        configuration.defaultHeaders["X-Api-Key"] = "app-key-5f1e"
        configuration.logging = true
        configuration.loggingOptions = LoggingOptions(sink: LogSink { lines.append($0) })
        let network = URLSessionNetwork(configuration: configuration, session: session)
        let store = InMemoryResponseStore(byteBudget: 1024 * 1024)

        for _ in 0..<2 {
            _ = try await network.send(SettingsRequest(), storage: store, policy: .storedIfFresh)
        }
        #expect(session.recordedRequests.count == 2, "the second send was answered from the store")
        let notes = lines.all.filter { $0.contains("storage bypassed") }
        #expect(notes.count == 1, "\(notes)")
        #expect(notes.first?.contains("StoragePartition") == true)
        #expect(!lines.all.joined().contains("app-key-5f1e"))
    }

    @Test(
        "with the partition the guide names, the app-wide key's answers are stored, and the offline fallback falls back"
    )
    func namedPartitionStoresAndFallsBack() async throws {
        let session = MockSession()
        session.stub(
            with: [
                MockResponse(statusCode: 200, data: Self.settingsBody, headers: ["Content-Type": "application/json"]),
                .failure(.notConnectedToInternet),
            ])
        var configuration = NetworkConfiguration(baseURL: Self.baseURL)
        configuration.defaultHeaders["X-Api-Key"] = "app-key-5f1e"
        let network = URLSessionNetwork(configuration: configuration, session: session)
        let store = InMemoryResponseStore(byteBudget: 1024 * 1024)

        let online = try await network.send(PartitionedSettingsRequest(), storage: store, policy: .storedIfFresh)
        let offline = try await network.send(
            PartitionedSettingsRequest(), storage: store, policy: .networkFallingBackToStored)

        #expect(online.value == Settings(theme: "dark"))
        #expect(online.source == .network)
        #expect(offline.value == Settings(theme: "dark"))
        #expect(offline.source == .store, "the offline send did not fall back to the stored answer")
        #expect(session.recordedRequests.count == 2)
    }
}

/// ECNetworking 2.x and ELWebService decoded whatever an API labelled its JSON; ported code keeps
/// working, and a body that is not what the request reads fails with the wrong type.
@Suite("Migration: mislabelled bodies")
struct MigrationContentTypeTests {
    private struct Profile: Decodable, Sendable, Equatable {
        var name: String
    }

    /// A 2.x request as ported: a `Decodable` response and nothing about content types.
    private struct ProfileRequest: Request {
        typealias Response = Profile

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("profile"))
        }
    }

    /// A request that decodes a non-JSON body itself (`name=…` lines), as 2.x requests did by
    /// overriding their decoding.
    private struct LegacyProfileRequest: Request {
        typealias Response = Profile

        func buildRequest(with baseURL: URL) -> NetworkRequest {
            NetworkRequest(url: baseURL.appendingPathComponent("profile"))
        }

        func response(from data: Data, with decoder: JSONDecoder) throws -> Profile {
            let text = String(decoding: data, as: UTF8.self)
            guard text.hasPrefix("name=") else { throw LegacyFormatError() }
            return Profile(name: String(text.dropFirst(5)))
        }
    }

    private struct LegacyFormatError: Error {}

    private static let profileJSON = Data(#"{"name":"Ada"}"#.utf8)

    @Test(
        "JSON labelled text/html or text/plain decodes over a real server, and an HTML page fails as the wrong type",
        arguments: TransportKind.allCases)
    func mislabelledJSONDecodes(kind: TransportKind) async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/html/profile":
                .response(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Self.profileJSON)
            case "/plain/profile":
                .response(status: 200, headers: ["Content-Type": "text/plain"], body: Self.profileJSON)
            default:
                .response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>login</html>".utf8))
            }
        }
        defer { server.stop() }
        for prefix in ["html", "plain"] {
            try await kind.withNetwork(baseURL: server.baseURL.appendingPathComponent(prefix)) { network in
                let profile = try await network.send(ProfileRequest())
                #expect(profile == Profile(name: "Ada"))
            }
        }
        try await kind.withNetwork(baseURL: server.baseURL.appendingPathComponent("portal")) { network in
            do {
                _ = try await network.send(ProfileRequest())
                Issue.record("an HTML page decoded as a profile")
            } catch NetworkError.unacceptableContentType(let response) {
                #expect(response.body == Data("<html>login</html>".utf8))
            }
        }
    }

    @Test(
        "a request's own decoding reads a non-JSON body, and its own error is not reported as the wrong type, on both networks",
        arguments: [false, true])
    func ownDecodingIsNotHeldToJSON(isFake: Bool) async throws {
        func network(answering body: String) -> any Network {
            let response = NetworkResponse(
                statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data(body.utf8))
            if isFake {
                let fake = FakeNetwork(baseURL: URL(string: "https://api.example.com")!)
                fake.stub(LegacyProfileRequest.self, with: .networkResponse(response))
                return fake
            }
            let session = MockSession()
            session.stub(with: MockResponse(statusCode: 200, data: response.body, headers: response.headers))
            return URLSessionNetwork(
                configuration: NetworkConfiguration(baseURL: URL(string: "https://api.example.com")!), session: session)
        }
        #expect(try await network(answering: "name=Ada").send(LegacyProfileRequest()) == Profile(name: "Ada"))
        do {
            _ = try await network(answering: "<html>").send(LegacyProfileRequest())
            Issue.record("a body the request could not read decoded")
        } catch NetworkError.decodingFailed(let error, _) {
            #expect(error is LegacyFormatError)
        }
    }
}

extension TransportKind {
    /// Whether the kind sends through a `URLSession`.
    var isURLSession: Bool { rawValue.hasPrefix("urlSession") }
}
