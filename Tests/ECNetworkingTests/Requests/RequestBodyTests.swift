import ECNetworking
import ECNetworkingTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A body whose property name shows which key-encoding strategy was used.
private struct NewAccount: Codable, Equatable, Sendable {
    var firstName: String
    var emailAddress: String
}

/// An `Encodable` that always fails to encode.
private struct UnencodableBody: Encodable, Sendable {
    struct Failure: Error {}

    func encode(to encoder: any Encoder) throws {
        throw Failure()
    }
}

/// ECNetworking's pattern: the request is its own body.
private struct CreateAccountRequest: Request, Encodable {
    typealias Response = Void
    let firstName: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        .init(method: .post, url: baseURL.appendingPathComponent("accounts"), body: self)
    }
}

/// The values of every `Content-Type` field of a recorded request.
private func contentTypeFields(of request: URLRequest) -> [String] {
    (request.allHTTPHeaderFields ?? [:]).filter { $0.key.lowercased() == "content-type" }.map(\.value)
}

/// A JSON body as a dictionary, to compare without depending on key order.
private func jsonObject(_ data: Data?) throws -> [String: String] {
    let data = try #require(data)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
}

@Suite("Request bodies")
struct RequestBodyTests {
    private let url = testBaseURL.appendingPathComponent("accounts")

    // MARK: - JSON

    @Test("An Encodable body is sent as JSON with Content-Type application/json")
    func jsonBody() async throws {
        let (network, session) = makeStubbedNetwork()
        let account = NewAccount(firstName: "Ada", emailAddress: "ada@example.com")

        _ = try await network.send(NetworkRequest(method: .post, url: url, body: .json(account)))

        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.httpMethod == "POST")
        #expect(contentTypeFields(of: recorded) == ["application/json"])
        let body = try #require(recorded.httpBody)
        #expect(try JSONDecoder().decode(NewAccount.self, from: body) == account)
    }

    @Test("ECNetworking's initializer with an Encodable body uses the configuration's encoder")
    func legacyInitializerUsesConfigurationEncoder() async throws {
        let (network, session) = makeStubbedNetwork { $0.encoder.keyEncodingStrategy = .convertToSnakeCase }
        let account = NewAccount(firstName: "Ada", emailAddress: "ada@example.com")

        _ = try await network.send(NetworkRequest(method: .post, url: url, body: account))

        let recorded = try #require(session.recordedRequests.first)
        #expect(try jsonObject(recorded.httpBody) == ["first_name": "Ada", "email_address": "ada@example.com"])
        #expect(recorded.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("A Request that is its own body is encoded with the configuration's encoder")
    func requestAsItsOwnBody() async throws {
        let (network, session) = makeStubbedNetwork { $0.encoder.keyEncodingStrategy = .convertToSnakeCase }

        try await network.send(CreateAccountRequest(firstName: "Grace"))

        let recorded = try #require(session.recordedRequests.first)
        #expect(try jsonObject(recorded.httpBody) == ["first_name": "Grace"])
    }

    @Test("An encoder given with .json(_:encoder:) wins over the configuration's")
    func explicitEncoderWins() async throws {
        let (network, session) = makeStubbedNetwork { $0.encoder.keyEncodingStrategy = .convertToSnakeCase }
        let account = NewAccount(firstName: "Ada", emailAddress: "a@b.c")

        _ = try await network.send(
            NetworkRequest(method: .post, url: url, body: .json(account, encoder: JSONEncoder())))

        let recorded = try #require(session.recordedRequests.first)
        #expect(try jsonObject(recorded.httpBody) == ["firstName": "Ada", "emailAddress": "a@b.c"])
    }

    @Test("A Content-Type the caller set is not overwritten or doubled, whatever its case")
    func callerContentTypeWins() async throws {
        let (network, session) = makeStubbedNetwork()

        _ = try await network.send(
            NetworkRequest(
                headers: ["content-type": "application/vnd.api+json"], method: .post, url: url,
                body: .json(["a": 1])))

        let recorded = try #require(session.recordedRequests.first)
        #expect(contentTypeFields(of: recorded) == ["application/vnd.api+json"])
        #expect(recorded.httpBody == Data(#"{"a":1}"#.utf8))
    }

    @Test("A request without a body sends no body and no Content-Type")
    func noBody() async throws {
        let (network, session) = makeStubbedNetwork()
        _ = try await network.send(NetworkRequest(url: url))
        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.httpBody == nil)
        #expect(contentTypeFields(of: recorded).isEmpty)
    }

    // MARK: - Raw data

    @Test("Raw data is sent byte for byte with its content type")
    func rawData() async throws {
        let (network, session) = makeStubbedNetwork()
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x0D, 0x0A])

        _ = try await network.send(
            NetworkRequest(method: .put, url: url, body: .data(bytes, contentType: "image/png")))

        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.httpBody == bytes)
        #expect(contentTypeFields(of: recorded) == ["image/png"])
    }

    @Test("Raw data defaults to application/octet-stream; a nil content type sends none")
    func rawDataContentTypes() async throws {
        let (network, session) = makeStubbedNetwork()
        let bytes = Data([1, 2, 3])

        _ = try await network.send(NetworkRequest(method: .put, url: url, body: .data(bytes)))
        _ = try await network.send(NetworkRequest(method: .put, url: url, body: .data(bytes, contentType: nil)))

        let recorded = session.recordedRequests
        try #require(recorded.count == 2)
        #expect(contentTypeFields(of: recorded[0]) == ["application/octet-stream"])
        #expect(recorded[0].httpBody == bytes)
        #expect(contentTypeFields(of: recorded[1]).isEmpty)
        #expect(recorded[1].httpBody == bytes)
    }

    // MARK: - Form

    @Test("Form fields are form-encoded: space as +, & = + and non-ASCII percent-encoded, order kept")
    func formBody() async throws {
        let (network, session) = makeStubbedNetwork()
        let fields = [
            URLQueryItem(name: "full name", value: "Ada Lovelace"),
            URLQueryItem(name: "q", value: "a&b=c"),
            URLQueryItem(name: "plus", value: "1+1"),
            URLQueryItem(name: "city", value: "Zürich"),
            URLQueryItem(name: "empty", value: nil),
        ]

        _ = try await network.send(NetworkRequest(method: .post, url: url, body: .form(fields)))

        let recorded = try #require(session.recordedRequests.first)
        #expect(contentTypeFields(of: recorded) == ["application/x-www-form-urlencoded"])
        let body = String(decoding: try #require(recorded.httpBody), as: UTF8.self)
        #expect(body == "full+name=Ada+Lovelace&q=a%26b%3Dc&plus=1%2B1&city=Z%C3%BCrich&empty=")
    }

    @Test("Form fields from a dictionary are sorted by name")
    func formFromDictionary() throws {
        let encoded = try RequestBody.form(["b": "2", "a": "1 1", "c": "3"]).encoded(defaultEncoder: JSONEncoder())
        #expect(String(decoding: encoded.data, as: UTF8.self) == "a=1+1&b=2&c=3")
        #expect(encoded.contentType == "application/x-www-form-urlencoded")
    }

    @Test("A caller-set Content-Type also wins over the form content type")
    func formWithCallerContentType() async throws {
        let (network, session) = makeStubbedNetwork()
        _ = try await network.send(
            NetworkRequest(
                headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"], method: .post,
                url: url, body: .form(["a": "1"])))
        let recorded = try #require(session.recordedRequests.first)
        #expect(contentTypeFields(of: recorded) == ["application/x-www-form-urlencoded; charset=utf-8"])
    }

    // MARK: - Text

    @Test("Text is sent as UTF-8 with text/plain; charset=utf-8 by default")
    func textBody() async throws {
        let (network, session) = makeStubbedNetwork()
        _ = try await network.send(NetworkRequest(method: .post, url: url, body: .text("héllo 日本")))
        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.httpBody == Data("héllo 日本".utf8))
        #expect(contentTypeFields(of: recorded) == ["text/plain; charset=utf-8"])
    }

    @Test("Text can have its own content type")
    func textWithContentType() async throws {
        let (network, session) = makeStubbedNetwork()
        _ = try await network.send(
            NetworkRequest(method: .post, url: url, body: .text("a,b\n1,2", contentType: "text/csv")))
        let recorded = try #require(session.recordedRequests.first)
        #expect(recorded.httpBody == Data("a,b\n1,2".utf8))
        #expect(contentTypeFields(of: recorded) == ["text/csv"])
    }

    // MARK: - Encoding failures

    @Test("An Encodable that throws fails the send with encodingFailed and nothing is sent")
    func throwingEncodable() async throws {
        let (network, session) = makeStubbedNetwork()

        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(NetworkRequest(method: .post, url: url, body: .json(UnencodableBody())))
        }

        guard case .encodingFailed(let underlying) = error else {
            Issue.record("Expected encodingFailed, got \(error)")
            return
        }
        #expect(underlying is UnencodableBody.Failure)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("A value JSONEncoder rejects (NaN) fails with encodingFailed carrying an EncodingError")
    func nanIsRejected() async throws {
        let (network, session) = makeStubbedNetwork()

        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(NetworkRequest(method: .post, url: url, body: ["value": Double.nan]))
        }

        guard case .encodingFailed(let underlying) = error else {
            Issue.record("Expected encodingFailed, got \(error)")
            return
        }
        #expect(underlying is EncodingError)
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("encoded(defaultEncoder:) reports the content type each kind of body implies")
    func encodedContentTypes() throws {
        let encoder = JSONEncoder()
        #expect(try RequestBody.json(1).encoded(defaultEncoder: encoder).contentType == "application/json")
        #expect(try RequestBody.data(Data()).encoded(defaultEncoder: encoder).contentType == "application/octet-stream")
        #expect(try RequestBody.data(Data(), contentType: nil).encoded(defaultEncoder: encoder).contentType == nil)
        #expect(try RequestBody.text("t").encoded(defaultEncoder: encoder).contentType == "text/plain; charset=utf-8")
        #expect(throws: NetworkError.self) {
            try RequestBody.json(UnencodableBody()).encoded(defaultEncoder: encoder)
        }
    }
}
