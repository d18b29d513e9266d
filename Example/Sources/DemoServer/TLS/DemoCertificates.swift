internal import Crypto
import Foundation
internal import X509

/// A throwaway certificate authority and a server certificate it signed for `localhost`, made
/// anew in memory, so that the demo server can speak HTTPS without a file or a tool: what a test
/// or a staging server has in place of a public CA.
///
/// ```swift
/// let certificates = try DemoCertificates()
/// let server = try await DemoServer.start(tls: certificates)  // https://localhost:<port>
/// ```
///
/// A client trusts the server by adding ``certificateAuthorityPEM`` to its roots of trust, and may
/// pin ``serverPublicKeySHA256``, the SHA-256 of the server key's `SubjectPublicKeyInfo`, in base64:
/// what HPKP, OkHttp's `CertificatePinner` and Alamofire's pinning evaluators name.
public struct DemoCertificates: Sendable {
    /// The authority's certificate, in PEM: the one root a client needs to trust the server.
    public let certificateAuthorityPEM: String
    /// The server's certificate, for `localhost`, in PEM.
    public let serverCertificatePEM: String
    /// The server's private key, in PEM. It never leaves the process.
    public let serverPrivateKeyPEM: String
    /// The base64 SHA-256 of the server key's `SubjectPublicKeyInfo`: the server's pin.
    public let serverPublicKeySHA256: String

    /// Makes a new authority and server certificate, valid from an hour ago for a day, with P-256
    /// keys.
    public init() throws {
        let now = Date()
        let authorityKey = P256.Signing.PrivateKey()
        let authorityName = try DistinguishedName { CommonName("ECNetworking demo CA") }
        let authority = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(authorityKey.publicKey),
            notValidBefore: now - 3_600,
            notValidAfter: now + 86_400,
            issuer: authorityName,
            subject: authorityName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey)
        )
        let serverKey = P256.Signing.PrivateKey()
        let server = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(serverKey.publicKey),
            notValidBefore: now - 3_600,
            notValidAfter: now + 86_400,
            issuer: authorityName,
            subject: try DistinguishedName { CommonName("localhost") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost")])
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey)
        )
        certificateAuthorityPEM = try authority.serializeAsPEM().pemString
        serverCertificatePEM = try server.serializeAsPEM().pemString
        serverPrivateKeyPEM = serverKey.pemRepresentation
        // `derRepresentation` of a P-256 public key is its SubjectPublicKeyInfo.
        serverPublicKeySHA256 = Data(SHA256.hash(data: serverKey.publicKey.derRepresentation)).base64EncodedString()
    }
}
