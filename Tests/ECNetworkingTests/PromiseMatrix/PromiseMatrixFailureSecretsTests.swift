import ECNetworking
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The promise matrix's "no secret shows" column on the failure paths: its main cells send to
/// routes that answer (`/ok`, `/fail`, `/token`). These plant the same secrets and send to peers that fail on
/// the wire (garbage, a cut-off body, a closed port, a response past `maximumResponseSize`), with
/// every observer on, and search the observers and every rendering of the error the caller gets
/// *as thrown* (a download's `DownloadError` is not unwrapped here).
@Suite("Promise matrix: no secret shows on the failure paths of every way to send", .timeLimit(.minutes(3)))
struct PromiseMatrixFailureSecretsTests {
    @Test(
        "transport failures (garbage, cut-off body, closed port, too large) show no planted secret anywhere",
        arguments: SendWay.allCases, TransportKind.allCases)
    func failurePathsShowNoSecret(way: SendWay, kind: TransportKind) async throws {
        let server = try MatrixServer()
        defer { server.stop() }
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let gone = try ClosedPort()

        for target in ["garbage", "truncated", "closed", "tooLarge"] {
            let observers = MatrixObservers()
            let thrown: (any Error)? = try await kind.withNetwork(
                baseURL: server.server.baseURL,
                configure: { configuration in
                    observers.observe(&configuration)
                    if target == "tooLarge" { configuration.maximumResponseSize = 4 }
                }
            ) { network in
                network.add(action: observers.failureAction)
                // A first send stores the server's cookie, so the failing one carries it.
                _ = try? await way.run(server.request(.ok), through: network, folder: folder.url)
                var request: NetworkRequest
                switch target {
                case "garbage": request = server.request(.garbage)
                case "truncated": request = server.request(.truncated)
                case "tooLarge": request = server.request(.token)
                default:
                    request = server.request(.ok)
                    request.url = URL(
                        string: "\(gone.baseURL.absoluteString)/ok?page=1&access_token=\(MatrixSecrets.queryToken)")!
                }
                do {
                    _ = try await way.run(
                        request, through: network, bodySecret: MatrixSecrets.bodyPassword, folder: folder.url)
                    return nil
                } catch {
                    return error
                }
            }
            var seen = observers.everything
            // The check can fail: the send did fail, and something was shown redacted.
            #expect(thrown != nil, "\(way) over \(kind) to \(target) succeeded")
            #expect(seen.contains("<redacted>"), "\(way) over \(kind) to \(target): nothing redacted was seen")
            if let thrown {
                seen += "\n" + renderings(of: thrown).values.joined(separator: "\n")
                seen += "\n" + renderings(of: SendWay.sendError(thrown)).values.joined(separator: "\n")
            }
            #expect(
                MatrixSecrets.shown(in: seen).isEmpty,
                "\(way) over \(kind) to \(target) showed \(MatrixSecrets.shown(in: seen)):\n\(seen)")
        }
    }
}
