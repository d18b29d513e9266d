import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Action stages")
struct StageOrderTests {
    @Test("actions run in the order added at every stage, stage by stage")
    func stageOrder() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "Ada")]))
        let network = makeNetwork(session: session)
        let log = EventLog()
        network.add(action: RecordingAction(name: "A", log: log))
        network.add(action: RecordingAction(name: "B", log: log))
        network.add(action: RecordingAction(name: "C", log: log))

        let users = try await network.send(ListUsers())

        #expect(users == [User(id: 1, name: "Ada")])
        #expect(
            log.all == [
                "A.willBegin", "B.willBegin", "C.willBegin",
                "A.began", "B.began", "C.began",
                "A.responseBegan", "B.responseBegan", "C.responseBegan",
                "A.completed", "B.completed", "C.completed",
            ])
    }

    @Test("a will-begin change is what the transport sends, and later actions see it")
    func willBeginModification() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        let seenByLaterAction = EventLog()
        network.add(
            action: WillBegin { request in
                var request = request
                request.headers["Authorization"] = "Bearer token-1"
                request.queryItems.append(URLQueryItem(name: "page", value: "2"))
                return request
            })
        network.add(
            action: WillBegin { request in
                seenByLaterAction.append(request.headers["authorization"] ?? "none")
                return request
            })

        _ = try await network.send(ListUsers())

        let sent = try #require(session.recordedRequests.first)
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
        #expect(sent.url?.absoluteString == "https://api.example.com/v1/users?page=2")
        #expect(seenByLaterAction.all == ["Bearer token-1"])
    }

    @Test("a will-begin failure sends nothing, skips every later stage, and passes the error through")
    func willBeginFailure() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        let log = EventLog()
        network.add(action: WillBegin { _ in throw MarkerError(id: 7) })
        network.add(action: RecordingAction(name: "after", log: log))

        await #expect(throws: MarkerError(id: 7)) { try await network.send(ListUsers()) }
        #expect(session.recordedRequests.isEmpty)
        #expect(log.all.isEmpty)
    }

    @Test("a completed action can replace the response before decoding")
    func completedModification() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 500, json: ["error": "boom"]))
        let network = makeNetwork(session: session)
        network.add(
            action: Completed { _, response in
                var replaced = response
                replaced.statusCode = 200
                replaced.body = try JSONEncoder().encode([User(id: 9, name: "Cached")])
                return .proceed(replaced)
            })

        let users = try await network.send(ListUsers())

        #expect(users == [User(id: 9, name: "Cached")])
    }

    @Test("a completed action that throws fails the send with that error, unchanged")
    func completedFailure() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        network.add(action: Completed { _, _ in throw MarkerError(id: 3) })

        await #expect(throws: MarkerError(id: 3)) { try await network.send(ListUsers()) }
    }

    @Test("began and response-began see the request as sent, with defaults, content type and body")
    func beganSeesWireRequest() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 201, json: User(id: 5, name: "New")))
        let network = makeNetwork(session: session) { $0.defaultHeaders["X-Client"] = "tests" }
        let seen = EventLog()
        struct Observer: RequestBeganAction, ResponseBeganAction {
            let seen: EventLog
            func requestBegan(_ request: NetworkRequest) {
                seen.append("began \(request.headers["X-Client"] ?? "-") \(request.headers["Content-Type"] ?? "-")")
            }
            func responseBegan(request: NetworkRequest, response: NetworkResponse) {
                seen.append("response \(response.statusCode) \(request.url.path)")
            }
        }
        network.add(action: Observer(seen: seen))
        struct Create: Request {
            typealias Response = User
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                NetworkRequest(
                    method: .post, url: baseURL.appendingPathComponent("users"), body: User(id: 0, name: "New"))
            }
        }

        let created = try await network.send(Create())

        #expect(created == User(id: 5, name: "New"))
        #expect(seen.all == ["began tests application/json", "response 201 /v1/users"])
    }

    @Test("actions added while requests run are safe and apply to later sends")
    func concurrentAdd() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        let counter = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask { _ = try await network.send(ListUsers()) }
                group.addTask {
                    network.add(
                        action: WillBegin { request in
                            counter.increment()
                            var request = request
                            request.headers.add(name: "X-Action", value: "\(index)")
                            return request
                        })
                }
            }
            try await group.waitForAll()
        }
        _ = try await network.send(ListUsers())

        let last = try #require(session.recordedRequests.last)
        #expect(last.value(forHTTPHeaderField: "X-Action")?.split(separator: ",").count == 100)
        #expect(counter.count >= 100)
    }
}
