import ECNetworking
import Foundation
import TestSupport
import Testing

@Suite(
    "One list of sensitive headers: stripped on cross-origin redirects and redacted in logs", .timeLimit(.minutes(1)))
struct SensitiveHeaderRedirectTests {
    @Test("a header the user marks sensitive is neither forwarded to another origin nor logged")
    func userAddedHeader() async throws {
        let target = try TransportTestRoutes.server()
        defer { target.stop() }
        let origin = try TransportTestRoutes.server(redirectingTo: target.baseURL)
        defer { origin.stop() }
        let lines = Log<String>()
        var configuration = NetworkConfiguration(baseURL: origin.baseURL, logging: true)
        configuration.logSink = LogSink { lines.append($0) }
        configuration.sensitiveData.headers.insert("X-Tenant-Handle")
        // The network's own transport, built from the configuration.
        let network = URLSessionNetwork(configuration: configuration)
        let headers: HTTPHeaders = [
            "Authorization": "Bearer secret", "X-Api-Key": "key-secret", "X-Tenant-Handle": "tenant-secret",
            "X-Trace": "trace-1",
        ]

        let response = try await network.send(
            NetworkRequest(headers: headers, url: origin.baseURL.appendingPathComponent("cross")))

        #expect(response.statusCode == 200)
        let first = try #require(origin.requests.first)
        #expect(first.header("X-Tenant-Handle") == "tenant-secret")
        let forwarded = try #require(target.requests.first)
        #expect(forwarded.header("X-Tenant-Handle") == nil)
        #expect(forwarded.header("X-Api-Key") == nil)
        expectCredentialsRemoved(from: forwarded)
        let log = lines.all.joined(separator: "\n")
        #expect(!log.contains("tenant-secret"))
        #expect(log.contains("X-Tenant-Handle: <redacted>"))
    }
}
