import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@Suite("Completion-handler actions (ECNetworking style)")
struct CompletionStyleActionTests {
    @Test("a completion-style will-begin action modifies the request, even answering later on another thread")
    func completionStyleModifies() async throws {
        struct DelayedHeader: RequestWillBeginAction {
            func requestWillBegin(_ request: NetworkRequest, completion: @escaping RequestCompletion) {
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
                    var request = request
                    request.headers["X-Legacy"] = "yes"
                    completion(.success(request))
                }
            }
        }
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        network.add(action: DelayedHeader())

        _ = try await network.send(ListUsers())

        #expect(session.recordedRequests.first?.value(forHTTPHeaderField: "X-Legacy") == "yes")
    }

    @Test("an action that drops its completion handler fails the send instead of hanging it")
    func droppedCompletion() async throws {
        struct Forgetful: RequestWillBeginAction {
            func requestWillBegin(_ request: NetworkRequest, completion: @escaping RequestCompletion) {
                // Forgets to call completion.
            }
        }
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        network.add(action: Forgetful())

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected a failure")
        } catch NetworkError.actionDidNotComplete(let action) {
            #expect(action.contains("Forgetful"))
        }
        #expect(session.recordedRequests.isEmpty)
    }

    @Test("a completion handler called twice resumes the send once")
    func doubleCompletion() async throws {
        struct Twice: ResponseCompletedAction {
            func responseCompleted(
                request: NetworkRequest,
                response: NetworkResponse,
                completion: @escaping ResponseCompletion
            ) {
                completion(.success(response))
                completion(.failure(MarkerError(id: 1)))
            }
        }
        let session = MockSession()
        session.stub(with: MockResponse(json: [User(id: 1, name: "A")]))
        let network = makeNetwork(session: session)
        network.add(action: Twice())

        let users = try await network.send(ListUsers())
        #expect(users.count == 1)
    }

    @Test("an action that implements neither method fails with actionNotImplemented")
    func neitherImplemented() async throws {
        struct Empty: RequestWillBeginAction {}
        let session = MockSession()
        session.stub(with: MockResponse(json: [User]()))
        let network = makeNetwork(session: session)
        network.add(action: Empty())

        do {
            _ = try await network.send(ListUsers())
            Issue.record("expected a failure")
        } catch NetworkError.actionNotImplemented(let action) {
            #expect(action.contains("Empty"))
        }
    }

    @Test("an async action can be called through its completion-handler method")
    func asyncActionThroughCompletion() async throws {
        let action = WillBegin { request in
            var request = request
            request.headers["X-Async"] = "1"
            return request
        }
        let result = await withCheckedContinuation { continuation in
            action.requestWillBegin(NetworkRequest(url: testBaseURL)) { continuation.resume(returning: $0) }
        }
        #expect(try result.get().headers["X-Async"] == "1")
    }
}
