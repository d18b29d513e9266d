import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(Combine)
    import Combine
#endif

// The snippets of the Migrating article, verbatim (ReadmeSnippetsTests checks that each block appears
// in a compiled file), and tests that what the guide says about each behaviour change holds.

struct Brew: Codable, Sendable, Equatable {
    let name: String
}

struct ListBrewsRequest: Request {
    typealias Response = [Brew]

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("brews"))
    }
}

struct MarkBrewSeenRequest: Request {
    typealias Response = Void
    let id: Int

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("brews/\(id)/seen"))
    }
}

/// What the API answers to an order, whatever the status: `{"accepted": false, "reason": "…"}`.
struct OrderReceipt: Codable, Sendable {
    let accepted: Bool
    let reason: String?
}

struct OrderBrewRequest: Request {
    typealias Response = OrderReceipt
    let name: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(method: .post, url: baseURL.appendingPathComponent("orders"), body: ["name": name])
        // As in ECNetworking and ELWebService: every status reaches decoding.
        request.acceptableStatusCodes = Set(100..<600)
        return request
    }
}

struct SearchBrewsRequest: Request {
    typealias Response = [Brew]
    let style: String
    let organic: Bool

    func buildRequest(with baseURL: URL) throws -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("brews/search"))
        // ELWebService wrote Booleans as 1 and 0; the default encoder writes true and false.
        let encoder = DefaultQueryParameterEncoder(boolEncoding: .numeric)
        try request.addQueryParameters(["style": style, "organic": organic], encoder: encoder)
        return request
    }
}

struct RateBrewRequest: Request {
    typealias Response = Void
    let comment: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        // `.form` writes a space as `+`, which form parsers read as a space. For a server that
        // only understands `%20`, as ELWebService sent it, encode the fields yourself:
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let form = "comment=" + (comment.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
        return NetworkRequest(
            method: .post,
            url: baseURL.appendingPathComponent("ratings"),
            body: .text(form, contentType: "application/x-www-form-urlencoded"))
    }
}

struct UploadBrewLabelRequest: Request {
    typealias Response = Void
    let label: Data

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        // `.data` says `application/octet-stream` unless told otherwise; `nil` sends no
        // Content-Type, as ELWebService's `setBody` did.
        NetworkRequest(method: .put, url: baseURL.appendingPathComponent("label"), body: .data(label, contentType: nil))
    }
}

/// The screen the handler-chain snippet updates.
@MainActor
final class BrewScreen {
    private(set) var names: [String] = []
    private(set) var error: (any Error)?

    func show(_ names: [String]) {
        self.names = names
    }

    func showError(_ error: any Error) {
        self.error = error
    }
}

@MainActor
func showBrews(on screen: BrewScreen, network: any Network) async {
    do {
        let brews: [Brew]
        do {
            // response, responseJSON: the request decodes
            brews = try await network.send(ListBrewsRequest())
        } catch let error as NetworkError where error.statusCode == 404 {
            // recover: a value instead of the error
            brews = []
        }
        // transform: plain code on the value
        let names = brews.map(\.name).sorted()
        // updateUI: this function runs on the main actor
        screen.show(names)
    } catch {
        // responseError, updateErrorUI
        screen.showError(error)
    }
}

/// Which `catch` caught the send's error, in words.
func describeFailure(of request: ListBrewsRequest, sentThrough network: any Network) async -> String {
    do {
        _ = try await network.send(request)
        return "no error"
    } catch NetworkError.transport(let urlError) {
        // was: catch let urlError as URLError
        return "offline: \(urlError.code.rawValue)"
    } catch NetworkError.decodingFailed(let decodingError as DecodingError, let response) {
        // was: catch let decodingError as DecodingError
        return "undecodable (status \(response.statusCode)): \(decodingError)"
    } catch NetworkError.cancelled {
        // was: catch let urlError as URLError where urlError.code == .cancelled
        return "cancelled"
    } catch {
        return "other: \(error)"
    }
}

#if canImport(Combine)
    func subscribeToBrews(
        network: any Network,
        show: @escaping ([Brew]) -> Void,
        subscriptions: inout Set<AnyCancellable>
    ) {
        network.publisher(for: ListBrewsRequest(), priority: .high)
            .sink { completion in
                if case .failure(let error) = completion { print(error) }
            } receiveValue: { brews in
                show(brews)
            }
            .store(in: &subscriptions)
    }
#endif

@Suite("Migrating: behaviour changes and their old behaviour")
struct ReadmeMigrationTests {
    private static let baseURL = URL(string: "https://api.example.com")!

    private static func network(_ session: MockSession) -> URLSessionNetwork {
        URLSessionNetwork(configuration: NetworkConfiguration(baseURL: baseURL), session: session)
    }

    @Test("a 4xx fails with the whole response; a request that accepts every status decodes it, as before")
    func statusCodes() async throws {
        let session = MockSession()
        session.stub(.path("/brews"), with: MockResponse(statusCode: 404, jsonObject: [[String: Any]]()))
        session.stub(
            .path("/orders"),
            with: MockResponse(statusCode: 409, jsonObject: ["accepted": false, "reason": "sold out"]))
        let network = Self.network(session)

        let error = await #expect(throws: NetworkError.self) { try await network.send(ListBrewsRequest()) }
        #expect(error?.statusCode == 404)

        let receipt = try await network.send(OrderBrewRequest(name: "stout"))
        #expect(!receipt.accepted)
        #expect(receipt.reason == "sold out")
    }

    @Test("the configuration can accept every status for all requests")
    func statusCodesForAllRequests() async throws {
        let session = MockSession()
        session.stub(.path("/brews"), with: MockResponse(statusCode: 500, jsonObject: [["name": "stale"]]))
        let baseURL = Self.baseURL
        var configuration = NetworkConfiguration(baseURL: baseURL)
        configuration.acceptableStatusCodes = Set(100..<600)
        let network = URLSessionNetwork(configuration: configuration, session: session)

        #expect(try await network.send(ListBrewsRequest()) == [Brew(name: "stale")])
    }

    @Test("transport, decoding and cancellation errors arrive wrapped in NetworkError")
    func wrappedErrors() async throws {
        let session = MockSession()
        session.stub(.path("/brews"), with: .failure(.notConnectedToInternet))
        let offline = await describeFailure(of: ListBrewsRequest(), sentThrough: Self.network(session))
        #expect(offline == "offline: \(URLError.Code.notConnectedToInternet.rawValue)")

        let undecodable = MockSession()
        undecodable.stub(.path("/brews"), with: MockResponse(data: Data("<html>".utf8)))
        let garbled = await describeFailure(of: ListBrewsRequest(), sentThrough: Self.network(undecodable))
        #expect(garbled.hasPrefix("undecodable (status 200)"), "\(garbled)")

        let slow = MockSession()
        slow.stub(.path("/brews"), with: MockResponse(jsonObject: [[String: Any]](), delay: .seconds(600)))
        let network = Self.network(slow)
        let sending = Task { await describeFailure(of: ListBrewsRequest(), sentThrough: network) }
        try await waitUntil { slow.recordedRequests.count == 1 }
        sending.cancel()
        #expect(await sending.value == "cancelled")
    }

    @Test("identical GETs are not coalesced unless the configuration says so")
    func coalescingIsOptIn() async throws {
        // Long enough for both sends of a pair to be on the wire together, even under load.
        let answer = MockResponse(jsonObject: [[String: Any]](), delay: .seconds(2))
        let separate = MockSession()
        separate.stub(.path("/brews"), with: answer)
        let network = Self.network(separate)
        async let first = network.send(ListBrewsRequest())
        async let second = network.send(ListBrewsRequest())
        _ = try await (first, second)
        #expect(separate.recordedRequests.count == 2)

        let shared = MockSession()
        shared.stub(.path("/brews"), with: answer)
        let baseURL = Self.baseURL
        var configuration = NetworkConfiguration(baseURL: baseURL)
        configuration.coalescesIdenticalRequests = true
        let coalescing = URLSessionNetwork(configuration: configuration, session: shared)
        async let third = coalescing.send(ListBrewsRequest())
        async let fourth = coalescing.send(ListBrewsRequest())
        _ = try await (third, fourth)
        #expect(shared.recordedRequests.count == 1)
    }

    @Test(
        "ELWebService's wire format: Booleans as true, form spaces as +, raw bodies as octet-stream; and the way back")
    func wireFormat() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: [[String: Any]]()))
        let network = Self.network(session)

        // The defaults.
        var defaults = NetworkRequest(url: Self.baseURL.appendingPathComponent("brews/search"))
        try defaults.addQueryParameters(["organic": true])
        defaults.body = .form(["comment": "very good"])
        _ = try await network.send(defaults)
        var raw = NetworkRequest(method: .put, url: Self.baseURL.appendingPathComponent("label"))
        raw.body = .data(Data([1, 2, 3]))
        _ = try await network.send(raw)

        // The old behaviour, as the guide shows it.
        _ = try await network.send(SearchBrewsRequest(style: "ale", organic: true))
        try await network.send(RateBrewRequest(comment: "very good+"))
        try await network.send(UploadBrewLabelRequest(label: Data([1, 2, 3])))

        let sent = session.recordedRequests
        try #require(sent.count == 5)
        #expect(sent[0].url?.query == "organic=true")
        #expect(sent[0].httpBody.map { String(decoding: $0, as: UTF8.self) } == "comment=very+good")
        #expect(sent[1].value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")

        #expect(sent[2].url?.query == "organic=1&style=ale")
        #expect(sent[3].httpBody.map { String(decoding: $0, as: UTF8.self) } == "comment=very%20good%2B")
        #expect(sent[3].value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(sent[4].httpBody == Data([1, 2, 3]))
        #expect(sent[4].value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test("fire-and-forget and priorities, renamed")
    func renamedSends() async throws {
        let network = FakeNetwork(baseURL: Self.baseURL)
        network.stub(ListBrewsRequest.self, with: [Brew(name: "porter")])
        network.stub(MarkBrewSeenRequest.self, with: ())
        let delivered = Counter()

        // was: network.send(request, withPriority: .high) { result in … }
        network.send(ListBrewsRequest(), priority: .high) { result in
            if case .success(let brews) = result { print(brews) }
            delivered.increment()
        }
        // was: network.send(request), with no completion
        Task { try? await network.send(MarkBrewSeenRequest(id: 7)) }

        try await waitUntil { delivered.count == 1 && network.sendCount(of: MarkBrewSeenRequest.self) == 1 }
    }

    @Test("the AsyncSequence form of a send")
    func asyncSequence() async throws {
        let network = FakeNetwork(baseURL: Self.baseURL)
        network.stub(ListBrewsRequest.self, with: [Brew(name: "porter")])
        var shown: [[Brew]] = []
        for try await brews in network.responses(for: ListBrewsRequest()) {
            shown.append(brews)
        }
        #expect(shown == [[Brew(name: "porter")]])
    }

    #if canImport(Combine)
        @Test("the Combine form of a send")
        func combine() async throws {
            let network = FakeNetwork(baseURL: Self.baseURL)
            network.stub(ListBrewsRequest.self, with: [Brew(name: "porter")])
            let received = Counter()
            var subscriptions: Set<AnyCancellable> = []
            subscribeToBrews(network: network, show: { _ in received.increment() }, subscriptions: &subscriptions)
            try await waitUntil { received.count == 1 }
        }
    #endif

    @Test("ELWebService's handler chain as async code: value, transform, updateUI")
    @MainActor
    func handlerChain() async throws {
        let network = FakeNetwork(baseURL: Self.baseURL)
        network.stub(ListBrewsRequest.self, with: [Brew(name: "stout"), Brew(name: "ale")])
        let screen = BrewScreen()
        await showBrews(on: screen, network: network)
        #expect(screen.names == ["ale", "stout"])
        #expect(screen.error == nil)
    }

    @Test("ELWebService's handler chain as async code: recover, responseError")
    @MainActor
    func handlerChainErrors() async throws {
        let network = FakeNetwork(baseURL: Self.baseURL)
        let notFound = NetworkResponse(statusCode: 404, headers: [:], body: Data())
        network.stub(ListBrewsRequest.self, throwing: NetworkError.unacceptableStatusCode(notFound))
        let recovered = BrewScreen()
        await showBrews(on: recovered, network: network)
        #expect(recovered.names == [])
        #expect(recovered.error == nil)

        network.stub(ListBrewsRequest.self, throwing: NetworkError.transport(URLError(.timedOut)))
        let failed = BrewScreen()
        await showBrews(on: failed, network: network)
        #expect(failed.error is NetworkError)
    }
}
