import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An API's JSON error body.
private struct APIError: Codable, Equatable, Sendable {
    var message: String
    var field: String
}

private struct SnakeCaseAPIError: Decodable, Equatable {
    var errorCode: Int
}

private struct CreateUser: Request {
    typealias Response = User
    let name: String

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("users"), body: .json(["name": name]))
    }
}

private struct SomeError: Error {}

@Suite("NetworkError")
struct NetworkErrorTests {
    private static let errorBody = APIError(message: "name is required", field: "name")

    // MARK: - A 422 through a real send

    @Test("A 422 carries its response: status, body, and the API error decoded from it")
    func unprocessableEntity() async throws {
        let (network, session) = makeStubbedNetwork(answering: MockResponse(statusCode: 422, json: Self.errorBody))

        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(CreateUser(name: ""))
        }

        guard case .unacceptableStatusCode(let carried) = error else {
            Issue.record("Expected unacceptableStatusCode, got \(error)")
            return
        }
        #expect(carried.statusCode == 422)
        #expect(error.statusCode == 422)
        let response = try #require(error.response)
        #expect(response.statusCode == 422)
        #expect(try JSONDecoder().decode(APIError.self, from: response.body) == Self.errorBody)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.request?.method == .post)
        #expect(error.decodeBody(APIError.self) == Self.errorBody)
        #expect(error.decodeBody(User.self) == nil)
        #expect(session.recordedRequests.count == 1)
    }

    @Test("decodeBody uses the decoder it is given")
    func decodeBodyWithDecoder() {
        let error = NetworkError.unacceptableStatusCode(
            NetworkResponse(statusCode: 400, body: Data(#"{"error_code":17}"#.utf8)))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(error.decodeBody(SnakeCaseAPIError.self, using: decoder) == SnakeCaseAPIError(errorCode: 17))
        #expect(error.decodeBody(SnakeCaseAPIError.self) == nil)
    }

    @Test("The description of an unacceptable status mentions the status and the start of the body")
    func unacceptableStatusDescription() async throws {
        let (network, _) = makeStubbedNetwork(answering: MockResponse(statusCode: 422, json: Self.errorBody))
        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(CreateUser(name: ""))
        }
        let description = try #require(error.errorDescription)
        #expect(description.contains("422"))
        #expect(description.contains("name is required"))
    }

    @Test("The description of an unacceptable status cuts a long body")
    func longBodyIsCut() {
        let body = String(repeating: "x", count: 500)
        let error = NetworkError.unacceptableStatusCode(NetworkResponse(statusCode: 500, body: Data(body.utf8)))
        let description = error.errorDescription ?? ""
        #expect(description.contains("500"))
        #expect(description.contains(String(repeating: "x", count: 200)))
        #expect(!description.contains(String(repeating: "x", count: 201)))
    }

    // MARK: - Errors without a response

    @Test("A transport failure carries the URLError and no response")
    func transportError() async throws {
        let (network, _) = makeStubbedNetwork(answering: .failure(.notConnectedToInternet))
        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(CreateUser(name: "Ada"))
        }
        guard case .transport(let urlError) = error else {
            Issue.record("Expected transport, got \(error)")
            return
        }
        #expect(urlError.code == .notConnectedToInternet)
        #expect(error.response == nil)
        #expect(error.statusCode == nil)
        #expect(error.decodeBody(APIError.self) == nil)
        #expect(!error.isCancellation)
        #expect(error.errorDescription?.contains("\(URLError.Code.notConnectedToInternet.rawValue)") == true)
    }

    @Test("A URLError.cancelled from the transport becomes NetworkError.cancelled")
    func transportCancellation() async throws {
        let (network, _) = makeStubbedNetwork(answering: .failure(.cancelled))
        let error = try await #require(throws: NetworkError.self) {
            _ = try await network.send(CreateUser(name: "Ada"))
        }
        #expect(error.isCancellation)
    }

    @Test("Cancelling the sending task ends the send with a cancellation")
    func taskCancellation() async throws {
        let (network, session) = makeStubbedNetwork(answering: MockResponse(statusCode: 200, delay: longDelay))
        let task = Task { try await network.send(CreateUser(name: "Ada")) }
        try await waitUntil { session.recordedRequests.count == 1 }
        task.cancel()

        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("Expected the send to fail, got \(result)")
            return
        }
        let networkError = try #require(error as? NetworkError)
        #expect(networkError.isCancellation)
        #expect(networkError.response == nil)
    }

    // MARK: - Every case

    private static let sampleResponse = NetworkResponse(statusCode: 500, body: Data("oops".utf8))

    private static let allCases: [NetworkError] = [
        .invalidRequest(reason: "bad header"),
        .encodingFailed(SomeError()),
        .transport(URLError(.timedOut)),
        .timedOut(after: .seconds(2)),
        .unacceptableStatusCode(sampleResponse),
        .decodingFailed(SomeError(), response: sampleResponse),
        .retryLimitReached(attempts: 4, response: sampleResponse),
        .invalidResponse,
        .responseTooLarge(limit: 1024),
        .readerFellBehind(limit: 2048),
        .requestBodyFailed(SomeError()),
        .tooManyRedirects(limit: 5),
        .redirectRefused(scheme: "file"),
        .actionTimedOut(action: "AuthAction", after: .seconds(1)),
        .retriesExhausted(attempts: 3, lastError: NetworkError.unacceptableStatusCode(sampleResponse)),
        .actionDidNotComplete(action: "AuthAction"),
        .actionNotImplemented(action: "AuthAction"),
        .cancelled,
        .invalidated,
    ]

    @Test("Every case has a non-empty description")
    func everyCaseHasADescription() {
        for error in Self.allCases {
            let description = error.errorDescription ?? ""
            #expect(!description.isEmpty, "\(error) has no description")
        }
    }

    @Test("Descriptions carry the details a person needs")
    func descriptionDetails() {
        #expect(NetworkError.invalidRequest(reason: "bad header").errorDescription?.contains("bad header") == true)
        #expect(NetworkError.responseTooLarge(limit: 1024).errorDescription?.contains("1024") == true)
        #expect(NetworkError.readerFellBehind(limit: 2048).errorDescription?.contains("2048") == true)
        #expect(NetworkError.tooManyRedirects(limit: 5).errorDescription?.contains("5") == true)
        #expect(NetworkError.redirectRefused(scheme: "file").errorDescription?.contains("file URL") == true)
        #expect(
            NetworkError.retryLimitReached(attempts: 4, response: Self.sampleResponse).errorDescription?
                .contains("4 attempts") == true)
        #expect(
            NetworkError.actionTimedOut(action: "AuthAction", after: .seconds(1)).errorDescription?
                .contains("AuthAction") == true)
        let exhausted = NetworkError.retriesExhausted(
            attempts: 3, lastError: NetworkError.unacceptableStatusCode(Self.sampleResponse))
        #expect(exhausted.errorDescription?.contains("3 attempts") == true)
        #expect(exhausted.errorDescription?.contains("500") == true)
    }

    @Test("Only .cancelled is a cancellation")
    func isCancellation() {
        for error in Self.allCases {
            if case .cancelled = error {
                #expect(error.isCancellation)
            } else {
                #expect(!error.isCancellation, "\(error) claims to be a cancellation")
            }
        }
    }

    @Test("Only the cases that carry a response report one")
    func responseByCase() {
        for error in Self.allCases {
            switch error {
            case .unacceptableStatusCode, .decodingFailed, .retryLimitReached, .retriesExhausted:
                #expect(error.response?.statusCode == 500, "\(error) should carry the response")
                #expect(error.statusCode == 500)
                #expect(error.response?.body == Data("oops".utf8))
            default:
                #expect(error.response == nil, "\(error) should carry no response")
                #expect(error.statusCode == nil)
            }
        }
    }

    @Test("retriesExhausted with a last error that has no response reports none")
    func retriesExhaustedWithoutResponse() {
        let error = NetworkError.retriesExhausted(attempts: 2, lastError: URLError(.timedOut))
        #expect(error.response == nil)
        #expect(error.statusCode == nil)
        #expect(error.decodeBody(APIError.self) == nil)
    }
}
