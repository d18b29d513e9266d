import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The test doubles' rows of the promise matrix send only requests a stub matches. A request that no stub matches fails with an error of the doubles' own
/// (`MockSessionError.noStub`, `FakeNetworkError.noNetworkRequestStub`), which names the request:
/// these search that error, and the network's log, metrics hook, failure actions, spans and
/// HAR archive, for the planted secrets. The unmatched request is the everyday case of a HAR replay
/// (README: "a request nothing matches fails with an error that names it"), and test logs end up
/// in CI output.
@Suite("Promise matrix: a request no stub matches shows no secret", .timeLimit(.minutes(1)))
struct TestDoubleUnmatchedRequestSecretsTests {
    /// A request to `/ok` carrying the matrix's planted `Authorization` and `access_token`.
    private static func plantedRequest() -> NetworkRequest {
        MatrixSecrets.request(.ok, on: URL(string: "https://api.example.com")!)
    }

    /// Sends the planted request through the network `makeNetwork` makes from a configuration that
    /// every observer watches, expects it to fail, and searches the error and the observers.
    private func expectNoSecretShown(
        _ makeNetwork: (NetworkConfiguration, any RequestFailedAction) -> any Network
    ) async {
        let observers = MatrixObservers()
        var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com/")!)
        observers.observe(&configuration)
        let network = makeNetwork(configuration, observers.failureAction)
        var seen = ""
        do {
            _ = try await network.send(Self.plantedRequest())
            Issue.record("a request nothing answers succeeded")
        } catch {
            seen += renderings(of: error).values.joined(separator: "\n")
        }
        let caller = MatrixSecrets.shown(in: seen)
        let observed = MatrixSecrets.shown(in: observers.everything)
        #expect(caller.isEmpty, "the caller's error showed \(caller):\n\(seen)")
        #expect(observed.isEmpty, "the observers showed \(observed):\n\(observers.everything)")
    }

    @Test("MockSession with no matching stub: the error, log line, metrics hook and failure action show no secret")
    func mockSessionNoStub() async throws {
        let session = MockSession()
        session.stub(.path("/other"), with: MockResponse(statusCode: 200))
        await expectNoSecretShown { configuration, failureAction in
            let network = URLSessionNetwork(configuration: configuration, session: session)
            network.add(action: failureAction)
            return network
        }
    }

    @Test(
        "a HAR replay (MockSession(replaying:)) of a request with a fresh token in its query that matches no entry shows no secret"
    )
    func replayNoMatch() async throws {
        // An archive with one entry, for another path: the replayed request matches none.
        let recorder = HTTPArchiveRecorder()
        var recording = NetworkConfiguration(baseURL: URL(string: "https://api.example.com/")!)
        recording.archiveRecorder = recorder
        let recordingSession = MockSession()
        recordingSession.stub(with: MockResponse(statusCode: 200, data: Data(#"{"ok":true}"#.utf8)))
        let recordingNetwork = URLSessionNetwork(configuration: recording, session: recordingSession)
        _ = try await recordingNetwork.send(
            NetworkRequest(url: URL(string: "https://api.example.com/recorded")!))

        await expectNoSecretShown { configuration, failureAction in
            let network = URLSessionNetwork(
                configuration: configuration, session: MockSession(replaying: recorder.archive))
            network.add(action: failureAction)
            return network
        }
    }

    @Test("FakeNetwork with no raw-request stub: the error of a raw send shows no secret")
    func fakeNetworkNoRawStub() async throws {
        await expectNoSecretShown { configuration, failureAction in
            let fake = FakeNetwork(configuration: configuration, runsActions: true)
            fake.add(action: failureAction)
            return fake
        }
    }
}
