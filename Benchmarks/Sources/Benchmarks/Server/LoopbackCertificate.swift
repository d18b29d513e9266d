import Crypto
import Foundation
import NIOSSL
import X509

/// A self-signed certificate for `localhost` with its key, made in memory for the TLS rounds of
/// the `ahc` scenario: the server presents it, and each client trusts it alone, so the two sides
/// do the same handshake and the same record encryption.
struct LoopbackCertificate: Sendable {
    /// The certificate, in PEM: what a client adds to its roots of trust.
    let pem: String
    private let keyPEM: String

    init() throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: Date() - 3_600, notValidAfter: Date() + 86_400, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { SubjectAlternativeNames([.dnsName("localhost")]) },
            issuerPrivateKey: Certificate.PrivateKey(key))
        pem = try certificate.serializeAsPEM().pemString
        keyPEM = key.pemRepresentation
    }

    /// The server's TLS: this certificate and its key, offering `protocols` by ALPN.
    func serverConfiguration(protocols: [String]) throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)))
        configuration.applicationProtocols = protocols
        return configuration
    }

    /// A client's TLS that trusts this certificate and nothing else, as the library's
    /// `TLSPolicy(trustRoots: .only(_:))` makes it.
    func clientConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem)])
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}
