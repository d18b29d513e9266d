import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

// Requests written exactly as ECNetworking's users wrote them, with no change at all: each of them
// compiled with ECNetworking and meant something there, and must mean the same here. The only
// new code in this file is the test harness around them.

private struct Note: Codable, Equatable {
    let text: String
}

private struct Envelope: Decodable {
    let data: Note
}

// Item 1: ECNetworking's customisation point was the `Data` form.

private struct EnvelopedNoteRequest: Request {
    typealias Response = Note

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .get, url: baseURL.appendingPathComponent("note"))
    }

    func response(from data: Data, with decoder: JSONDecoder) throws -> Note {
        try decoder.decode(Envelope.self, from: data).data
    }
}

private struct Greeting {
    let words: [Substring]
}

private struct GreetingRequest: Request {
    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .get, url: baseURL.appendingPathComponent("greeting"))
    }

    func response(from data: Data, with decoder: JSONDecoder) throws -> Greeting {
        Greeting(words: String(decoding: data, as: UTF8.self).split(separator: " "))
    }
}

private struct ShoutedTextRequest: Request {
    typealias Response = String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .get, url: baseURL.appendingPathComponent("text"))
    }

    func response(from data: Data, with decoder: JSONDecoder) throws -> String {
        String(decoding: data, as: UTF8.self).uppercased()
    }
}

// Item 2: an optional model passed as the body; `nil` sent no body.

private struct UpdateNoteRequest: Request {
    typealias Response = Void
    let note: Note?

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .put, url: baseURL.appendingPathComponent("note"), body: note)
    }
}

// Item 3: no `typealias Response`; ECNetworking inferred `Void`.

private struct PingRequest: Request {
    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .post, url: baseURL.appendingPathComponent("ping"))
    }
}

// Item 4: custom properties as ECNetworking's README taught them, in a protocol extension. Here
// `[AnyHashable: Any]` is not `Request.customProperties`, so it is silently ignored.

private protocol MyRequest: Request {
    var requiresAuthentication: Bool { get }
}

extension MyRequest {
    var requiresAuthentication: Bool { true }

    var customProperties: [AnyHashable: Any] {
        ["requiresAuthentication": requiresAuthentication]
    }
}

private struct LoginRequest: Encodable {
    let username: String
    let password: String
}

extension LoginRequest: MyRequest {
    typealias Response = Void
    var requiresAuthentication: Bool { false }

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .post, url: baseURL.appendingPathComponent("login"), body: self)
    }
}

private struct ProfileRequest: MyRequest {
    typealias Response = Note

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .get, url: baseURL.appendingPathComponent("me"))
    }
}

/// The one piece of new code item 4 needs: an authenticator that logs in with the request above.
private struct LoginAuthenticator: Authenticator {
    let network: URLSessionNetwork

    func apply(_ credential: String, to request: inout NetworkRequest) {
        request.headers["Authorization"] = "Bearer \(credential)"
    }

    func refresh(_ credential: String?) async throws -> String {
        try await network.send(LoginRequest(username: "ada", password: "secret"))
        return "token"
    }
}

@Suite("Migration: ECNetworking requests compile and behave unchanged", .timeLimit(.minutes(1)))
struct ECNetworkingSourceCompatibilityTests {
    @Test("a request that implements the Data form of response(from:with:) is decoded by it")
    func dataFormIsCalled() async throws {
        let (network, _) = makeStubbedNetwork(
            answering: MockResponse(jsonObject: ["data": ["text": "inside"]]))

        let note = try await network.send(EnvelopedNoteRequest())

        #expect(note == Note(text: "inside"))
    }

    @Test("the Data form infers Response from its return type, and overrides the built-in String decoding")
    func dataFormInfersAndOverrides() async throws {
        let (network, _) = makeStubbedNetwork(answering: MockResponse(data: Data("hello big world".utf8)))

        let greeting = try await network.send(GreetingRequest())
        let shouted = try await network.send(ShoutedTextRequest())

        #expect(greeting.words == ["hello", "big", "world"])
        #expect(shouted == "HELLO BIG WORLD")
    }

    @Test("the Data form is called through FakeNetwork's raw-response stubs too")
    func dataFormThroughFakeNetwork() async throws {
        let fake = FakeNetwork()
        fake.stub(
            EnvelopedNoteRequest.self,
            response: NetworkResponse(statusCode: 200, body: Data(#"{"data":{"text":"faked"}}"#.utf8)))

        #expect(try await fake.send(EnvelopedNoteRequest()) == Note(text: "faked"))
    }

    @Test("an optional model that is nil sends no body and no Content-Type; a value is sent as JSON")
    func nilOptionalBodySendsNoBody() async throws {
        let (network, session) = makeStubbedNetwork(answering: MockResponse(statusCode: 204))

        try await network.send(UpdateNoteRequest(note: nil))
        try await network.send(UpdateNoteRequest(note: Note(text: "hi")))

        let requests = session.recordedRequests
        try #require(requests.count == 2)
        #expect(requests[0].httpBody == nil)
        #expect(requests[0].value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(requests[1].httpBody.map { String(decoding: $0, as: UTF8.self) } == #"{"text":"hi"}"#)
        #expect(requests[1].value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("a request without typealias Response infers Void and accepts any body")
    func missingTypealiasInfersVoid() async throws {
        let (network, session) = makeStubbedNetwork(answering: MockResponse(data: Data("not json".utf8)))

        let result: Void = try await network.send(PingRequest())

        #expect(PingRequest.Response.self == Void.self)
        #expect(result == ())
        #expect(session.recordedRequests.count == 1)
    }

    @Test("a login request with the [AnyHashable: Any] leftover, sent from refresh, fails at once, sending nothing")
    func leftoverCustomPropertiesFailFast() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(jsonObject: ["text": "me"]))
        let network = makeNetwork(session: session)
        // The action holds the network through its authenticator; invalidating breaks that cycle.
        defer { network.invalidate() }
        network.add(action: AuthenticatingAction(authenticator: LoginAuthenticator(network: network)))
        let clock = ContinuousClock()
        let start = clock.now

        await #expect(throws: AuthenticationError.authenticatedRequestDuringRefresh) {
            try await network.send(ProfileRequest())
        }

        // Fails fast: no timeout or deadline is involved, so well under the test's limit even under load.
        #expect(clock.now - start < .seconds(10))
        #expect(session.recordedRequests.isEmpty)
        // The leftover is indeed ignored, which the migration guide says; the fix is one line.
        #expect(LoginRequest(username: "ada", password: "secret").requiresAuthentication == false)
    }
}
