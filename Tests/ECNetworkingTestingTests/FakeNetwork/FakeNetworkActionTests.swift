import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("FakeNetwork runs added actions when asked to")
struct FakeNetworkActionTests {
    private let book = Book(id: 1, title: "Dune")

    @Test("without runsActions, actions are kept but do not run")
    func actionsKeptNotRun() async throws {
        let fake = FakeNetwork()
        fake.add(action: AddToken(token: "t"))
        fake.stub(GetBookRequest.self, with: book)
        _ = try await fake.send(GetBookRequest(id: 1))
        #expect(fake.addedActions.count == 1)
        #expect(fake.addedActions.first is AddToken)
        #expect(fake.sentNetworkRequests.first?.headers["Authorization"] == nil)
    }

    @Test("a will-begin action's changes are in the recorded NetworkRequest")
    func willBeginChangesRecorded() async throws {
        let fake = FakeNetwork(runsActions: true)
        fake.add(action: AddToken(token: "secret"))
        fake.stub(GetBookRequest.self, with: book)
        _ = try await fake.send(GetBookRequest(id: 1))
        #expect(fake.sentNetworkRequests.first?.headers["Authorization"] == "Bearer secret")
    }

    @Test("a throwing will-begin action fails the send with its error; the stub is not consulted")
    func willBeginThrows() async throws {
        let fake = FakeNetwork(runsActions: true)
        let answered = Log<Int>()
        fake.add(action: WillBegin { _ in throw TestError(code: 401) })
        fake.stub(GetBookRequest.self) { request in
            answered.append(request.id)
            return Book(id: request.id, title: "")
        }
        await #expect(throws: TestError(code: 401)) { try await fake.send(GetBookRequest(id: 1)) }
        #expect(answered.all.isEmpty)
    }

    @Test("actions run stage by stage, in the order they were added")
    func order() async throws {
        let fake = FakeNetwork(runsActions: true)
        let log = Log<String>()
        fake.add(action: RecordingAction(name: "A", log: log))
        fake.add(action: RecordingAction(name: "B", log: log))
        fake.stub(GetBookRequest.self, with: book)
        _ = try await fake.send(GetBookRequest(id: 1))
        #expect(
            log.all == [
                "A.willBegin", "B.willBegin", "A.began", "B.began",
                "A.responseBegan", "B.responseBegan", "A.completed", "B.completed",
            ])
    }

    @Test("value stubs show the response stages a synthesized 200 for the prepared request")
    func synthesizedResponse() async throws {
        let fake = FakeNetwork(runsActions: true)
        let seen = Log<String>()
        fake.add(action: AddToken(token: "t"))
        fake.add(
            action: Completed { request, response in
                seen.append("\(response.statusCode) \(response.request?.headers["Authorization"] ?? "-")")
                return .proceed(response)
            })
        fake.stub(GetBookRequest.self, with: book)
        _ = try await fake.send(GetBookRequest(id: 1))
        #expect(seen.all == ["200 Bearer t"])
    }

    @Test("a completed action's retry re-runs from will-begin and takes the next stubbed answer")
    func retry() async throws {
        let fake = FakeNetwork(runsActions: true)
        let log = Log<String>()
        fake.add(action: RecordingAction(name: "A", log: log))
        fake.add(action: RetryOnStatus(status: 401))
        fake.stub(GetBookRequest.self, with: [.networkResponse(NetworkResponse(statusCode: 401)), .value(book)])
        #expect(try await fake.send(GetBookRequest(id: 1)) == book)
        #expect(log.all.filter { $0 == "A.willBegin" }.count == 2)
        #expect(fake.sendCount(of: GetBookRequest.self) == 1)
    }

    @Test("retries are bounded: the fourth retry request fails with retryLimitReached")
    func retryLimit() async throws {
        let fake = FakeNetwork(runsActions: true)
        fake.add(action: Completed { _, _ in .retry })
        fake.stub(GetBookRequest.self, with: book)
        let error = try await #require(throws: NetworkError.self) { try await fake.send(GetBookRequest(id: 1)) }
        guard case .retryLimitReached(let attempts, _) = error else {
            Issue.record("expected retryLimitReached, got \(error)")
            return
        }
        #expect(attempts == 4)
    }

    @Test("a completed action may replace a raw response before validation")
    func completedReplacesResponse() async throws {
        let fake = FakeNetwork(runsActions: true)
        let fixed = Data(#"{"id":1,"title":"Dune"}"#.utf8)
        fake.add(action: Completed { _, response in .proceed(NetworkResponse(statusCode: 200, body: fixed)) })
        fake.stub(GetBookRequest.self, response: NetworkResponse(statusCode: 500))
        #expect(try await fake.send(GetBookRequest(id: 1)) == book)
    }
}
