import Foundation

/// The public keys a host's certificate chain must include one of: the base64 SHA-256 of a
/// certificate's DER `SubjectPublicKeyInfo`, as HPKP (RFC 7469) and OkHttp's `CertificatePinner`
/// name them (`openssl pkey -pubout -outform der | openssl dgst -sha256 -binary | base64`).
///
/// Give a backup pin beside the one in use, so that a new key does not lock clients out; a pin
/// past its expiry is no longer enforced.
public struct TLSPin: Sendable, Hashable {
    /// The host the pin applies to, as in the URL.
    public var host: String
    /// Whether the pin applies to every subdomain of ``host`` too.
    public var includesSubdomains: Bool
    /// The accepted keys' SHA-256 digests, base64: the chain must include one of them.
    public var sha256: [String]
    /// When the pin stops being enforced; `nil` for never.
    public var expires: Date?

    /// A pin of `host` to the keys whose SHA-256 digests `sha256` lists.
    public init(host: String, includesSubdomains: Bool = false, sha256: [String], expires: Date? = nil) {
        self.host = host
        self.includesSubdomains = includesSubdomains
        self.sha256 = sha256
        self.expires = expires
    }

    /// Whether the pin is still enforced.
    var isInForce: Bool {
        expires.map { $0 > Date() } ?? true
    }
}
