import ECNetworking
import ECNetworkingTesting
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ConfigurationAndLogging.md promises that descriptions and `dump` of a
/// `NetworkResponse` or `NetworkError` redact "with the default names plus those added to any
/// network's configuration"; a `FakeNetwork(configuration:)` takes the app's configuration too. The names here are used by no other test, so no other network in the process registers
/// them.
@Suite("A FakeNetwork's own sensitive names reach descriptions", .timeLimit(.minutes(1)))
struct FakeNetworkSensitiveNamesTests {
    @Test("a 401 from a FakeNetwork with sensitive names of its own: no description or dump of the error shows them")
    func fakeNetworkConfiguredNames() async throws {
        let headerSecret = "H3-FAKE-HEADER-4b1c"
        let bodySecret = "H3-FAKE-BODY-8e2a"
        var configuration = NetworkConfiguration(baseURL: URL(string: "https://api.example.com/")!)
        configuration.sensitiveData.headers.insert("X-H3-Probe-Handle")
        configuration.sensitiveData.bodyFields.insert("h3ProbePasscode")
        let fake = FakeNetwork(configuration: configuration)
        fake.stubNetworkRequests(
            with: NetworkResponse(
                statusCode: 401, headers: ["Content-Type": "application/json", "X-H3-Probe-Handle": headerSecret],
                body: Data(#"{"error":"expired","h3ProbePasscode":"\#(bodySecret)"}"#.utf8)))
        var request = NetworkRequest(url: URL(string: "https://api.example.com/me")!)
        request.headers["X-H3-Probe-Handle"] = headerSecret

        do {
            _ = try await fake.send(request)
            Issue.record("the 401 succeeded")
        } catch {
            expectNoSecrets(in: renderings(of: error), [headerSecret, bodySecret])
        }
    }
}
