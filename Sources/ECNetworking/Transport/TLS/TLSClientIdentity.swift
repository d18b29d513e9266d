import Foundation

/// A certificate chain and its private key, offered when a server asks for a client certificate
/// (mutual TLS).
///
/// The key is a secret: no description, debug description or `dump` of an identity shows it, nor
/// any other value that holds one.
public struct TLSClientIdentity: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The chain, leaf first.
    public let certificateChain: [TLSCertificate]
    /// The private key's PEM text, as given; read only by the transport.
    let privateKeyPEM: String

    /// An identity from PEM text: `certificateChainPEM` holds the leaf certificate first and any
    /// intermediates after it, `privateKeyPEM` the leaf's private key (PKCS#8 `PRIVATE KEY`, or
    /// `EC PRIVATE KEY` or `RSA PRIVATE KEY`), unencrypted.
    public init(certificateChainPEM: String, privateKeyPEM: String) throws {
        self.certificateChain = try TLSCertificate.all(inPEM: certificateChainPEM)
        guard try !PEMBlocks.decode(privateKeyPEM, label: nil).isEmpty else { throw TLSPolicyError.noPrivateKey }
        self.privateKeyPEM = privateKeyPEM
    }

    /// The chain's length; never the key.
    public var description: String {
        "TLSClientIdentity(\(certificateChain.count) certificate(s), private key redacted)"
    }

    /// As ``description``.
    public var debugDescription: String { description }

    /// What `dump` and mirrors show: the chain, and the key as redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["certificateChain": certificateChain, "privateKey": "<redacted>"])
    }
}
