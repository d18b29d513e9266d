import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

private struct Counted: Sendable, Equatable {
    let status: Int
    let bytes: Int
}

/// Implements only the `NetworkResponse` form, for a type the library cannot decode.
private struct StatusRequest: Request {
    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("status"))
    }

    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> Counted {
        Counted(status: response.statusCode, bytes: response.body.count)
    }
}

/// Implements only the `NetworkResponse` form for a `Decodable` response: it wins over the
/// built-in JSON decoding.
private struct WrappedUserRequest: Request {
    typealias Response = User

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("user"))
    }

    func response(from response: NetworkResponse, with decoder: JSONDecoder) throws -> User {
        User(id: response.statusCode, name: String(decoding: response.body, as: UTF8.self))
    }
}

/// Implements neither form for a type the library cannot decode.
private struct UndecodableRequest: Request {
    typealias Response = Counted

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(url: baseURL.appendingPathComponent("nothing"))
    }
}

private struct Payload: Encodable, Sendable {
    let value: Int
}

/// Builds a request the way generic code does, where the body's type is only `T`.
private func putRequest<T: Encodable & Sendable>(_ body: T) -> NetworkRequest {
    NetworkRequest(method: .put, url: testBaseURL.appendingPathComponent("put"), body: body)
}

@Suite("Requests: the two forms of response(from:with:), and optional bodies")
struct RequestDecodingFormsTests {
    @Test("a request implementing only the NetworkResponse form is decoded by it, Decodable or not")
    func networkResponseFormAlone() async throws {
        let (network, _) = makeStubbedNetwork(answering: MockResponse(statusCode: 201, data: Data("ada".utf8)))

        #expect(try await network.send(StatusRequest()) == Counted(status: 201, bytes: 3))
        #expect(try await network.send(WrappedUserRequest()) == User(id: 201, name: "ada"))
    }

    @Test("a request implementing neither form for an undecodable type fails with a typed error naming it")
    func neitherFormFails() async throws {
        let (network, _) = makeStubbedNetwork(answering: MockResponse(data: Data("{}".utf8)))

        let error = await #expect(throws: NetworkError.self) { try await network.send(UndecodableRequest()) }

        guard case .decodingFailed(let underlying, let response)? = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(underlying as? ResponseDecodingError == .notImplemented(requestType: "UndecodableRequest"))
        #expect(response.statusCode == 200)
    }

    @Test("the built-in decodings still apply to Data, String, Void and Decodable responses")
    func builtInDecodings() throws {
        struct Raw: Request {
            typealias Response = Data
            func buildRequest(with baseURL: URL) -> NetworkRequest { NetworkRequest(url: baseURL) }
        }
        struct Text: Request {
            typealias Response = String
            func buildRequest(with baseURL: URL) -> NetworkRequest { NetworkRequest(url: baseURL) }
        }
        struct Users: Request {
            typealias Response = [User]
            func buildRequest(with baseURL: URL) -> NetworkRequest { NetworkRequest(url: baseURL) }
        }
        let body = Data(#"[{"id":1,"name":"ada"}]"#.utf8)
        let response = NetworkResponse(statusCode: 200, body: body)
        let decoder = JSONDecoder()

        #expect(try Raw().response(from: response, with: decoder) == body)
        #expect(try Text().response(from: response, with: decoder) == #"[{"id":1,"name":"ada"}]"#)
        #expect(try Users().response(from: response, with: decoder) == [User(id: 1, name: "ada")])
        #expect(throws: ResponseDecodingError.invalidText) {
            try Text().response(from: Data([0xFF, 0xFE]), with: decoder)
        }
    }

    @Test("a nil Optional body is no body, also through generic code and nested optionals; .json(nil) stays null")
    func absentOptionalBodies() throws {
        let none: Payload? = nil
        let nested: Payload?? = .some(nil)

        #expect(putRequest(none).body == nil)
        #expect(putRequest(nested).body == nil)
        #expect(NetworkRequest(url: testBaseURL, body: nil).body == nil)
        let withValue = putRequest(Payload?.some(Payload(value: 1)))
        let present = try #require(withValue.body).encoded(defaultEncoder: JSONEncoder())
        #expect(String(decoding: present.data, as: UTF8.self) == #"{"value":1}"#)
        let explicit = try RequestBody.json(none).encoded(defaultEncoder: JSONEncoder())
        #expect(String(decoding: explicit.data, as: UTF8.self) == "null")
        #expect(explicit.contentType == "application/json")
    }
}
