import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Decodable` response, so its content type is checked as JSON by default.
private struct GetUser: Request {
    typealias Response = User
    var accept: String?
    var validates: Bool?

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("users/1"))
        request.headers["Accept"] = accept
        request.validatesContentType = validates
        return request
    }
}

/// A raw `Data` response, which no content type is checked for unless asked.
private struct GetAvatar: Request {
    typealias Response = Data
    var validates: Bool?

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        var request = NetworkRequest(url: baseURL.appendingPathComponent("avatar"))
        request.headers["Accept"] = "image/*"
        request.validatesContentType = validates
        return request
    }
}

private let userJSON = Data(#"{"id":1,"name":"Ada"}"#.utf8)

private func answering(_ contentType: String?, body: Data = userJSON, status: Int = 200) -> MockResponse {
    var headers: HTTPHeaders = [:]
    headers["Content-Type"] = contentType
    return MockResponse(statusCode: status, data: body, headers: headers)
}

@Suite("Content-type validation")
struct ContentTypeValidationTests {
    @Test(
        "a Decodable response accepts JSON, +json and parameters, and types without a Content-Type",
        arguments: [
            "application/json", "application/json; charset=utf-8", "Application/JSON",
            "application/problem+json", "application/vnd.api+json;v=2", nil,
        ])
    func acceptedByDefault(contentType: String?) async throws {
        let (network, _) = makeStubbedNetwork(answering: answering(contentType))

        #expect(try await network.send(GetUser()) == User(id: 1, name: "Ada"))
    }

    @Test("a Decodable response of HTML fails with unacceptableContentType carrying the response")
    func htmlRejected() async throws {
        let page = Data("<html>login</html>".utf8)
        let (network, _) = makeStubbedNetwork(answering: answering("text/html; charset=utf-8", body: page))

        await #expect {
            try await network.send(GetUser())
        } throws: { error in
            guard case .unacceptableContentType(let response)? = error as? NetworkError else { return false }
            return response.body == page && response.statusCode == 200 && (error as? NetworkError)?.response != nil
        }
    }

    @Test(
        "JSON of another label decodes, with or without an Accept header, unless the request asks for the check",
        arguments: ["text/plain", "text/html; charset=utf-8", "application/xml"])
    func mislabelledJSONDecodes(contentType: String) async throws {
        let (network, _) = makeStubbedNetwork(answering: answering(contentType))
        #expect(try await network.send(GetUser()) == User(id: 1, name: "Ada"))
        #expect(try await network.send(GetUser(accept: "application/json")) == User(id: 1, name: "Ada"))
        await #expect {
            try await network.send(GetUser(validates: true))
        } throws: { error in
            guard case .unacceptableContentType(let response)? = error as? NetworkError else { return false }
            return response.body == userJSON
        }
    }

    @Test("204 and empty bodies pass whatever their content type")
    func emptyBodiesPass() async throws {
        let (network, _) = makeStubbedNetwork(answering: answering("text/html", body: Data(), status: 204))
        _ = try await network.send(NetworkRequest(url: testBaseURL))
        let validated = NetworkResponse(statusCode: 200, headers: ["Content-Type": "text/html"], body: Data())
        let verdict = ContentTypeValidation.verdict(
            on: validated, defaultTypes: ["application/json"], enabledByDefault: true)
        #expect(verdict == .accepted)
    }

    @Test("the Accept header as sent decides, with type/* and */* wildcards")
    func acceptHeaderDecides() async throws {
        let (xmlNetwork, _) = makeStubbedNetwork(answering: answering("application/xml"))
        await #expect(throws: NetworkError.self) {
            try await xmlNetwork.send(GetUser(accept: "application/json", validates: true))
        }
        #expect(
            try await xmlNetwork.send(GetUser(accept: "text/plain, application/*;q=0.5", validates: true))
                == User(id: 1, name: "Ada"))
        let (anyNetwork, _) = makeStubbedNetwork(answering: answering("text/plain"))
        #expect(try await anyNetwork.send(GetUser(accept: "*/*", validates: true)) == User(id: 1, name: "Ada"))
    }

    @Test(
        "q=0 marks a type not acceptable, and the most specific range that takes a type decides",
        arguments: [
            ("*/*, text/html;q=0", "text/html", false),
            ("*/*, text/html;q=0", "text/plain", true),
            ("text/*;q=0, text/plain", "text/plain", true),
            ("text/*;q=0, text/plain", "text/csv", false),
            ("text/plain;q=0.5", "text/plain", true),
            ("text/plain; Q = 0.000", "text/plain", false),
            ("text/plain;q=0.001", "text/plain", true),
            ("text/plain;q=0x", "text/plain", true),
            ("application/json;q=0", "application/problem+json", false),
            ("application/json;q=0, application/problem+json", "application/problem+json", true),
            ("text/plain;q=0, text/plain", "text/plain", true),
            ("*/*;q=0", "image/png", false),
        ])
    func zeroQuality(accept: String, contentType: String, admitted: Bool) async throws {
        #expect(MediaRange.list(accept).admit(MediaRange(contentType)) == admitted)
        let (network, _) = makeStubbedNetwork(answering: answering(contentType))
        let request = GetUser(accept: accept, validates: true)
        if admitted {
            #expect(try await network.send(request) == User(id: 1, name: "Ada"))
        } else {
            await #expect(throws: NetworkError.self) { try await network.send(request) }
        }
    }

    @Test("without the strict check, a body of a type q=0 refuses that decodes is still returned")
    func zeroQualityWithoutStrictCheck() async throws {
        let (network, _) = makeStubbedNetwork(answering: answering("text/html"))
        let accept = "application/json, text/html;q=0"

        #expect(try await network.send(GetUser(accept: accept)) == User(id: 1, name: "Ada"))
        await #expect(throws: NetworkError.self) { try await network.send(GetUser(accept: accept, validates: true)) }
    }

    @Test("validation is turned off per request and in the configuration")
    func turnedOff() async throws {
        let page = Data("<html>".utf8)
        let (network, _) = makeStubbedNetwork(answering: answering("text/html", body: page))
        await #expect {
            try await network.send(GetUser(validates: false))
        } throws: { error in
            guard case .decodingFailed(_, let response)? = error as? NetworkError else { return false }
            return response.body == page
        }

        let (lenient, _) = makeStubbedNetwork(answering: answering("text/html", body: page)) {
            $0.validatesContentType = false
        }
        await #expect {
            try await lenient.send(GetUser())
        } throws: { error in
            guard case .decodingFailed? = error as? NetworkError else { return false }
            return true
        }
        await #expect {
            try await lenient.send(GetUser(validates: true))
        } throws: { error in
            guard case .unacceptableContentType? = error as? NetworkError else { return false }
            return true
        }
    }

    @Test("a Data response is not checked by default, and is against its Accept header when asked")
    func dataOptIn() async throws {
        let (network, _) = makeStubbedNetwork(answering: answering("text/html", body: Data("x".utf8)))
        #expect(try await network.send(GetAvatar()) == Data("x".utf8))

        await #expect {
            try await network.send(GetAvatar(validates: true))
        } throws: { error in
            guard case .unacceptableContentType? = error as? NetworkError else { return false }
            return true
        }
    }

    @Test("media ranges match type, subtype, wildcards and the +json suffix, ignoring case and parameters")
    func mediaRanges() throws {
        func accepts(_ range: String, _ type: String) throws -> Bool {
            try #require(MediaRange(range)).accepts(try #require(MediaRange(type)))
        }
        #expect(try accepts("*/*", "image/png"))
        #expect(try accepts("image/*", "IMAGE/PNG; q=1"))
        #expect(try !accepts("image/*", "text/png"))
        #expect(try accepts("application/json", "application/geo+json"))
        #expect(try !accepts("application/geo+json", "application/json"))
        #expect(try !accepts("application/json", "application/jsonp"))
        #expect(try !accepts("text/json", "application/json"))
        #expect(MediaRange("json") == nil)
        #expect(MediaRange.list(" text/html , application/xhtml+xml;q=0.9, bogus").count == 2)
    }

    @Test(
        "a content type is checked against type names read in place as against the ranges they parse to",
        arguments: [
            "application/json", "Application/JSON; charset=utf-8", " application/problem+json ", "text/html",
            "application/jsonp", "image/png", "json", "a/b/c", "/json", "application/", "",
            "application/json; charset=utf-8", "text/html;level=1", "application / json", "*/*", "text/*",
        ])
    func rangesReadInPlace(contentType: String) {
        /// What checking against parsed ranges tells: ranges that do not parse are skipped, and with
        /// none left any type passes.
        func parsed(_ ranges: [String]) -> Bool {
            let type = MediaRange(contentType)
            var namesAny = false
            for range in ranges.compactMap(MediaRange.init) {
                namesAny = true
                if let type, range.accepts(type) { return true }
            }
            return !namesAny
        }
        let lists = [
            ["application/json"], ["text/*", "image/png"], ["*/*"], ["bogus"], [], ["bogus", "application/json"],
            ["IMAGE/*"], ["application/json;q=0.5", "text/plain"],
            // Named exactly: a type that does not parse is not taken by a range of the same text.
            ["json"], ["a/b/c", "text/html"], [""], ["text/html", "application/"], ["application / json"],
            ["*/*", "text/html"], ["text/*"],
            // Named in another case: types compare without regard to ASCII case.
            ["APPLICATION/JSON"], ["Text/Html", "image/x"], ["image/PNG"], ["application/JSONP"],
        ]
        for ranges in lists {
            #expect(MediaRange.text(contentType, fallsInAnyOf: ranges) == parsed(ranges), "\(ranges)")
        }
    }
}

@Suite("Content-type validation against a loopback server")
struct ContentTypeLoopbackTests {
    @Test("an HTML page where JSON was expected fails with unacceptableContentType, over real HTTP")
    func htmlFromRealServer() async throws {
        let server = try LoopbackHTTPServer { _ in
            .response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html></html>".utf8))
        }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))

        await #expect {
            try await network.send(GetUser())
        } throws: { error in
            guard case .unacceptableContentType(let response)? = error as? NetworkError else { return false }
            return response.headers["Content-Type"] == "text/html"
        }
    }

    /// How a send of ``GetUser`` ends when a server labels its body `contentType`.
    enum Outcome: Equatable, Sendable {
        case decoded
        case unacceptableContentType
        case decodingFailed
    }

    @Test(
        "a server's label is judged as in memory over a URLSession and URLSessionTransport, with and without the check asked for",
        arguments: [
            // (label, body is JSON, outcome by default, outcome when the request asks for the check)
            ("Application/JSON; charset=utf-8", true, Outcome.decoded, Outcome.decoded),
            ("application/problem+json", true, .decoded, .decoded),
            ("text/plain", true, .decoded, .unacceptableContentType),
            ("text/html; charset=utf-8", false, .unacceptableContentType, .unacceptableContentType),
            ("application/json", false, .decodingFailed, .decodingFailed),
            ("json", true, .decoded, .unacceptableContentType),
            ("json", false, .unacceptableContentType, .unacceptableContentType),
        ])
    func labelsOverFoundation(label: String, isJSON: Bool, byDefault: Outcome, whenAsked: Outcome) async throws {
        let body = isJSON ? userJSON : Data("<html>sign in</html>".utf8)
        let server = try LoopbackHTTPServer { _ in
            .response(status: 200, headers: ["Content-Type": label], body: body)
        }
        defer { server.stop() }
        let configuration = NetworkConfiguration(baseURL: server.baseURL)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let networks = [
            URLSessionNetwork(configuration: configuration),
            URLSessionNetwork(configuration: configuration, session: session),
        ]
        func outcome(_ request: GetUser, on network: URLSessionNetwork) async -> Outcome? {
            do {
                _ = try await network.send(request)
                return .decoded
            } catch NetworkError.unacceptableContentType {
                return .unacceptableContentType
            } catch NetworkError.decodingFailed {
                return .decodingFailed
            } catch {
                return nil
            }
        }
        for network in networks {
            #expect(await outcome(GetUser(), on: network) == byDefault, "\(label), by default")
            #expect(await outcome(GetUser(validates: true), on: network) == whenAsked, "\(label), asked")
        }
    }
}
