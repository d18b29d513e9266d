import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("cancelAll cancels the sends, never the tasks that made them")
struct ActiveSendRegistryTests {
    /// Where a send waits when `cancelAll` arrives.
    enum Place: String, CaseIterable, Sendable {
        case onTheWire = "wire"
        case inWillBeginAction = "action"
        case inTheQueue = "queued"
    }

    /// What the caller's task saw after its send was cancelled in bulk.
    private struct Aftermath: Sendable {
        var sendError: (any Error)?
        var callerCancelled = true
        var followUpSucceeded = false
        var sleepSucceeded = false
    }

    /// A network whose `slow-wire` path answers in 30 s, whose `slow-action` path waits 30 s in a
    /// will-begin action (under a time limit, so in a task cancelAll can cancel), and whose every
    /// other path answers at once; one request at a time.
    private static func makeSlowNetwork() -> (URLSessionNetwork, MockSession) {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        session.stub(.pathSuffix("slow-wire"), with: MockResponse(statusCode: 204, delay: .seconds(30)))
        let network = makeNetwork(session: session) { configuration in
            configuration.maximumConcurrentRequests = 1
            configuration.coalescesIdenticalRequests = false
            configuration.actionTimeout = .seconds(60)
        }
        network.add(
            action: WillBegin { request in
                if request.url.path.hasSuffix("slow-action") { try await Task.sleep(for: .seconds(30)) }
                return request
            })
        return (network, session)
    }

    /// Sends `path`, then (once that send ended) a quick follow-up and a short sleep, from one task.
    private static func sendThenCarryOn(_ path: String, on network: URLSessionNetwork) -> Task<Aftermath, Never> {
        Task {
            var aftermath = Aftermath()
            do {
                _ = try await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent(path)))
            } catch {
                aftermath.sendError = error
            }
            aftermath.callerCancelled = Task.isCancelled
            aftermath.followUpSucceeded =
                (try? await network.send(NetworkRequest(url: testBaseURL.appendingPathComponent("follow-up")))) != nil
            aftermath.sleepSucceeded = (try? await Task.sleep(for: .milliseconds(1))) != nil
            return aftermath
        }
    }

    /// Calls `cancelAll()` on a thread of its own and waits for it to return, so that a deadlock
    /// fails the test instead of hanging the run.
    private static func cancelAllOnItsOwnThread(_ network: URLSessionNetwork) async throws {
        let cancelled = Counter()
        Thread.detachNewThread {
            network.cancelAll()
            cancelled.increment()
        }
        try await waitUntil { cancelled.count == 1 }
    }

    private static func expectCancelled<Value>(_ task: Task<Value, any Error>) async {
        do {
            _ = try await task.value
            Issue.record("expected cancellation, got a value")
        } catch {
            #expect((error as? NetworkError)?.isCancellation == true, "got \(error)")
        }
    }

    private static func expectOnlyTheSendCancelled(_ aftermath: Aftermath, _ place: String) {
        #expect(
            (aftermath.sendError as? NetworkError)?.isCancellation == true,
            "\(place): \(String(describing: aftermath.sendError))")
        #expect(!aftermath.callerCancelled, "\(place): the caller's task must not be cancelled")
        #expect(aftermath.followUpSucceeded, "\(place): the caller's next send must work")
        #expect(aftermath.sleepSucceeded, "\(place): the caller's Task.sleep must work")
    }

    @Test("after cancelAll(), the caller's task is not cancelled: its next send and sleep work")
    func cancelAllSparesTheCaller() async throws {
        let (network, session) = Self.makeSlowNetwork()
        let onWire = Self.sendThenCarryOn("slow-wire", on: network)
        try await waitUntil { session.recordedRequests.count == 1 }
        let queued = Self.sendThenCarryOn("queued", on: network)
        try await waitUntil { network.admission?.waitingCount == 1 }
        let inAction = Self.sendThenCarryOn("slow-action", on: network)
        try await waitUntil { network.activeRequestCount == 3 }

        network.cancelAll()

        for (place, task) in [("wire", onWire), ("queue", queued), ("action", inAction)] {
            Self.expectOnlyTheSendCancelled(await task.value, place)
        }
        #expect(network.activeRequestCount == 0)
    }

    @Test("cancelAll() ends a queued send as cancelled even when the slot it waited for frees up first")
    func cancelAllMarksEverySendFirst() async throws {
        /// A session whose tasks take 300 ms to cancel, as a transport may: long enough for the
        /// send on the wire to give up its slot, and the queued one to take it, mid-cancelAll.
        struct SlowToCancel: Session {
            struct SlowTask: SessionTask {
                let base: any SessionTask
                func resume() { base.resume() }
                func cancel() {
                    usleep(300_000)
                    base.cancel()
                }
            }
            let base: MockSession

            func dataTask(
                for request: URLRequest, completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
            ) -> any SessionTask {
                SlowTask(base: base.dataTask(for: request, completion: completion))
            }
        }
        let mock = MockSession()
        mock.stub(with: MockResponse(statusCode: 204))
        mock.stub(.pathSuffix("slow-wire"), with: MockResponse(statusCode: 204, delay: .seconds(30)))
        var configuration = NetworkConfiguration(baseURL: testBaseURL)
        configuration.maximumConcurrentRequests = 1
        configuration.coalescesIdenticalRequests = false
        let network = URLSessionNetwork(configuration: configuration, session: SlowToCancel(base: mock))
        let onWire = Self.sendThenCarryOn("slow-wire", on: network)
        try await waitUntil { mock.recordedRequests.count == 1 }
        let queued = Self.sendThenCarryOn("queued", on: network)
        try await waitUntil { network.admission?.waitingCount == 1 }

        // On a thread of its own: the slow cancellation blocks the thread that cancels.
        try await Self.cancelAllOnItsOwnThread(network)

        Self.expectOnlyTheSendCancelled(await onWire.value, "wire")
        Self.expectOnlyTheSendCancelled(await queued.value, "queue")
        #expect(!mock.recordedRequests.contains { $0.url?.lastPathComponent == "queued" }, "the queued send went out")
    }

    @Test("after cancelAll(of:), the caller's task is not cancelled either")
    func cancelAllOfTypeSparesTheCaller() async throws {
        struct SlowWire: Request {
            typealias Response = Void
            func buildRequest(with baseURL: URL) -> NetworkRequest {
                NetworkRequest(url: baseURL.appendingPathComponent("slow-wire"))
            }
        }
        let (network, session) = Self.makeSlowNetwork()
        let caller = Task {
            var aftermath = Aftermath()
            do { try await network.send(SlowWire()) } catch { aftermath.sendError = error }
            aftermath.callerCancelled = Task.isCancelled
            aftermath.followUpSucceeded = (try? await network.send(ListUsersAsVoid())) != nil
            aftermath.sleepSucceeded = (try? await Task.sleep(for: .milliseconds(1))) != nil
            return aftermath
        }
        try await waitUntil { session.recordedRequests.count == 1 }

        network.cancelAll(of: SlowWire.self)

        Self.expectOnlyTheSendCancelled(await caller.value, "wire")
    }

    @Test("cancelling the caller's own task still cancels its send")
    func callerCancellationPropagates() async throws {
        let (network, session) = Self.makeSlowNetwork()
        let caller = Self.sendThenCarryOn("slow-wire", on: network)
        try await waitUntil { session.recordedRequests.count == 1 }

        caller.cancel()

        let aftermath = await caller.value
        #expect((aftermath.sendError as? NetworkError)?.isCancellation == true)
        #expect(aftermath.callerCancelled)
        try await waitUntil { session.cancelledRequestCount == 1 }
    }

    @Test("a cancellation handler that reads the network's activity does not deadlock cancelAll")
    func handlerTouchingTheNetwork() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let network = makeNetwork(session: session) { $0.actionTimeout = .seconds(60) }
        let seenDuringCancellation = Log<Int>()
        let entered = Counter()
        network.add(
            action: WillBegin { [weak network] request in
                try await withTaskCancellationHandler {
                    entered.increment()
                    try await Task.sleep(for: .seconds(30))
                    return request
                } onCancel: { [network] in
                    seenDuringCancellation.append(network?.activeRequestCount ?? -1)
                }
            })
        let send = Task { try await network.send(ListUsersAsVoid()) }
        try await waitUntil { entered.count == 1 }

        try await Self.cancelAllOnItsOwnThread(network)

        await Self.expectCancelled(send)
        #expect(seenDuringCancellation.all == [1])
    }

    @Test("a cancellation handler may start another send, which runs normally")
    func handlerStartingASend() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let network = makeNetwork(session: session) { $0.actionTimeout = .seconds(60) }
        let entered = Counter()
        let followUp = Log<Task<Void, any Error>>()
        network.add(
            action: WillBegin { [weak network] request in
                guard request.url.path.hasSuffix("users") else { return request }
                return try await withTaskCancellationHandler {
                    entered.increment()
                    try await Task.sleep(for: .seconds(30))
                    return request
                } onCancel: { [network] in
                    guard let network else { return }
                    followUp.append(Task { try await network.send(DeleteUser(id: 1)) })
                }
            })
        let send = Task { try await network.send(ListUsersAsVoid()) }
        try await waitUntil { entered.count == 1 }

        try await Self.cancelAllOnItsOwnThread(network)

        await Self.expectCancelled(send)
        let started = try #require(followUp.all.first)
        try await started.value
        #expect(session.recordedRequests.last?.url?.lastPathComponent == "1")
    }

    @Test("without actionTimeout an action runs to its end, and then its send ends as cancelled")
    func actionWithoutTimeLimit() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        let network = makeNetwork(session: session)
        let entered = Counter()
        let release = Counter()
        let actionSawCancellation = Log<Bool>()
        network.add(
            action: WillBegin { request in
                guard request.url.path.hasSuffix("slow-action") else { return request }
                entered.increment()
                try await waitUntil { release.count == 1 }
                actionSawCancellation.append(Task.isCancelled)
                return request
            })
        let send = Self.sendThenCarryOn("slow-action", on: network)
        try await waitUntil { entered.count == 1 }

        network.cancelAll()
        release.increment()

        let aftermath = await send.value
        #expect(
            (aftermath.sendError as? NetworkError)?.isCancellation == true,
            "got \(String(describing: aftermath.sendError))")
        #expect(actionSawCancellation.all == [false], "the action's own code is not interrupted")
        #expect(
            session.recordedRequests.map { $0.url?.lastPathComponent } == ["follow-up"],
            "the cancelled send never reaches the wire")
        #expect(!aftermath.callerCancelled)
        #expect(aftermath.followUpSucceeded)
    }

    @Test("a send started inside another send's action is cancelled with it")
    func nestedSendIsCancelledWithItsParent() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204))
        session.stub(.pathSuffix("slow-wire"), with: MockResponse(statusCode: 204, delay: .seconds(30)))
        let inner = makeNetwork(session: session)
        let outer = makeNetwork(session: session)
        let innerError = Log<String>()
        outer.add(
            action: WillBegin { request in
                guard request.url.path.hasSuffix("users") else { return request }
                do {
                    _ = try await inner.send(NetworkRequest(url: testBaseURL.appendingPathComponent("slow-wire")))
                } catch {
                    innerError.append(String(describing: error))
                    throw error
                }
                return request
            })
        let send = Self.sendThenCarryOn("users", on: outer)
        try await waitUntil { session.recordedRequests.count == 1 }
        let start = ContinuousClock.now

        outer.cancelAll()  // not `inner`: the inner send ends because its parent did

        let aftermath = await send.value
        #expect((aftermath.sendError as? NetworkError)?.isCancellation == true)
        #expect(innerError.all.count == 1, "the inner send ended: \(innerError.all)")
        #expect(ContinuousClock.now - start < .seconds(10), "the inner send would otherwise wait 30 s")
        #expect(!aftermath.callerCancelled)
    }

    @Test("sends racing cancelAll each end exactly once, and the count returns to zero")
    func racingCancelAll() async throws {
        let session = MockSession()
        session.stub(with: MockResponse(statusCode: 204, delay: .milliseconds(1)))
        let network = makeNetwork(session: session) { $0.coalescesIdenticalRequests = false }
        let ended = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    _ = try? await network.send(ListUsersAsVoid())
                    ended.increment()
                    #expect(!Task.isCancelled, "cancelAll must not cancel the caller's task")
                }
                if index % 10 == 0 { network.cancelAll() }
            }
            try await group.waitForAll()
        }
        #expect(ended.count == 200)
        #expect(network.activeRequestCount == 0)
    }
}

/// `GET /users` without decoding, so that an empty 204 answer succeeds.
private struct ListUsersAsVoid: Request {
    typealias Response = Void

    func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .get, url: baseURL.appendingPathComponent("users"))
    }
}
