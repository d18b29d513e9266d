import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLError` a caller (or a failure action) gets out of `NetworkError.transport(_:)`: code
/// that logs the error it matched (`catch NetworkError.transport(let urlError) { log("\(urlError)") }`)
/// must not show a token or userinfo, which FoundationNetworking's user info held (the failing URL
/// as it was, the session's task), where the metrics hook already got a redacted copy.
@Suite("The URLError inside NetworkError.transport shows no secret", .timeLimit(.minutes(1)))
struct TransportURLErrorSecretsTests {
    @Test(
        "the URLError a caller matches out of .transport shows no token or userinfo", arguments: TransportKind.allCases)
    func urlErrorPayload(kind: TransportKind) async throws {
        let gone = try ClosedPort()
        let url = URL(
            string:
                "http://ada:\(MatrixSecrets.linkPassword)@127.0.0.1:\(gone.port)/ok?access_token=\(MatrixSecrets.queryToken)"
        )!
        try await kind.withNetwork(baseURL: gone.baseURL) { network in
            do {
                _ = try await network.send(NetworkRequest(url: url))
                Issue.record("a send to a closed port succeeded")
            } catch NetworkError.transport(let urlError) {
                var texts = renderings(of: urlError)
                texts["failingURL"] = urlError.failingURL?.absoluteString ?? ""
                texts["userInfo"] = "\(urlError.userInfo)"
                expectNoSecrets(in: texts, [MatrixSecrets.queryToken, MatrixSecrets.linkPassword])
            } catch {
                Issue.record("expected NetworkError.transport, got \(error)")
            }
        }
    }
}
