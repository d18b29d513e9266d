import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A ``TLSPolicy``'s parts read from PEM, the private key kept out of every description, and the
/// refusal of a transport that cannot apply a setting, before anything is sent.
@Suite("TLS policy: PEM, redaction and refusal", .timeLimit(.minutes(1)))
struct TLSPolicyTests {
    /// A throwaway certificate and key, made by `openssl`, as PEM text.
    private func certificateAndKey() async throws -> (certificate: String, key: String, server: OpenSSLTestServer) {
        let server = try await OpenSSLTestServer.start()
        return (
            try String(contentsOfFile: server.certificatePath, encoding: .utf8),
            try String(contentsOfFile: server.keyPath, encoding: .utf8), server
        )
    }

    @Test("certificates are read from PEM, every block of a bundle in order; bad text is a typed error")
    func certificates() async throws {
        let (certificate, _, server) = try await certificateAndKey()
        defer { server.stop() }
        let one = try TLSCertificate(pem: certificate)
        // DER: a SEQUENCE.
        #expect(one.der.first == 0x30)
        let bundle = try TLSCertificate.all(inPEM: "a comment\n" + certificate + certificate)
        #expect(bundle == [one, one])
        #expect(throws: TLSPolicyError.noCertificate) { try TLSCertificate(pem: "no certificate here") }
        #expect(throws: TLSPolicyError.malformedPEM) {
            try TLSCertificate(pem: "-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n")
        }
    }

    @Test("a client identity's private key is in no description, debug description or dump")
    func identityRedaction() async throws {
        let (certificate, key, server) = try await certificateAndKey()
        defer { server.stop() }
        #expect(throws: TLSPolicyError.noPrivateKey) {
            try TLSClientIdentity(certificateChainPEM: certificate, privateKeyPEM: certificate)
        }
        let identity = try TLSClientIdentity(certificateChainPEM: certificate, privateKeyPEM: key)
        let policy = TLSPolicy(clientIdentity: identity)
        var dumped = ""
        dump(policy, to: &dumped)
        let shown = [
            identity.description, identity.debugDescription, String(describing: policy), String(reflecting: policy),
            dumped,
        ]
        // Every line of the key's base64, the planted secret.
        let keyLines = key.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        #expect(!keyLines.isEmpty)
        for text in shown {
            #expect(text.contains("redacted"), "\(text)")
            for line in keyLines { #expect(!text.contains(line), "\(text)") }
        }
    }

    @Test(
        "URLSessionTransport refuses every setting it cannot apply, before connecting",
        arguments: [
            TLSPolicy(pins: [TLSPin(host: "127.0.0.1", sha256: ["AAAA"])]),
            TLSPolicy(minimumVersion: .v1_3),
            TLSPolicy(trustRoots: .only([TLSCertificate(der: Data([0x30]))])),
        ])
    func urlSessionRefuses(_ policy: TLSPolicy) async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Data("ok".utf8)) }
        defer { server.stop() }
        let transport = URLSessionTransport(configuration: .ephemeral, tls: policy)
        defer { transport.invalidate() }
        let network = HTTPNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
        let error = await networkError { _ = try await network.send(NetworkRequest(url: server.baseURL)) }
        guard case .tlsSettingUnavailable(let setting)? = error else {
            Issue.record("expected tlsSettingUnavailable, got \(String(describing: error))")
            return
        }
        #expect(setting == policy.firstSetting(notIn: []))
        #expect(server.acceptedConnectionCount == 0)
    }

    @Test("a pin past its expiry is no longer enforced")
    func expiredPin() async throws {
        let server = try LoopbackHTTPServer { _ in .response(status: 200, body: Data("ok".utf8)) }
        defer { server.stop() }
        let expired = TLSPin(host: "127.0.0.1", sha256: ["AAAA"], expires: Date(timeIntervalSinceNow: -60))
        let transport = URLSessionTransport(configuration: .ephemeral, tls: TLSPolicy(pins: [expired]))
        defer { transport.invalidate() }
        let network = HTTPNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
        #expect(try await network.send(NetworkRequest(url: server.baseURL)).statusCode == 200)
    }
}
