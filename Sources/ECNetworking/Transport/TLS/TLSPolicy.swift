/// What a transport trusts and offers when it opens a TLS connection: roots of trust beyond (or
/// instead of) the system's, a client certificate for mutual TLS, the oldest TLS version accepted,
/// and public-key pins.
///
/// A transport applies every setting it can and refuses the rest: a send over a transport that
/// cannot apply a setting fails at once with ``NetworkError/tlsSettingUnavailable(_:)`` naming
/// it, before a byte is sent, so a pin or a root of trust is never silently ignored.
///
/// | setting | `AsyncHTTPClientTransport` | `URLSessionTransport` on Linux | `URLSessionTransport` on Apple platforms |
/// | --- | --- | --- | --- |
/// | ``trustRoots`` | applied | refused | refused |
/// | ``clientIdentity`` | applied | refused | refused |
/// | ``minimumVersion`` | applied | refused above TLS 1.2 | refused above TLS 1.2 |
/// | ``pins`` | refused | refused | refused |
///
/// Neither FoundationNetworking nor async-http-client 1.37 lets a client see the server's
/// certificate chain, so pins cannot be checked on Linux. On Apple platforms, apply a policy in a
/// `URLSession` delegate of your own (a server-trust challenge) for now.
public struct TLSPolicy: Sendable, Hashable {
    /// The certificates a server's chain must lead to.
    public var trustRoots: TLSTrustRoots
    /// The certificate and key offered when a server asks for one; `nil` for none.
    public var clientIdentity: TLSClientIdentity?
    /// The oldest TLS version accepted.
    public var minimumVersion: TLSVersion
    /// Public-key pins, by host.
    public var pins: [TLSPin]

    /// A policy; the defaults are the system's roots, no client certificate, TLS 1.2 and no pins.
    public init(
        trustRoots: TLSTrustRoots = .system,
        clientIdentity: TLSClientIdentity? = nil,
        minimumVersion: TLSVersion = .v1_2,
        pins: [TLSPin] = []
    ) {
        self.trustRoots = trustRoots
        self.clientIdentity = clientIdentity
        self.minimumVersion = minimumVersion
        self.pins = pins
    }

    /// The system's roots, no client certificate, TLS 1.2 or later, no pins: what every transport
    /// does unless told otherwise.
    public static let system = TLSPolicy()

    /// The first setting, in the order of ``TLSSetting``, that a transport able to apply only
    /// `applicable` must refuse; pins past their expiry are not counted.
    func firstSetting(notIn applicable: Set<TLSSetting>) -> TLSSetting? {
        var used: [TLSSetting] = []
        if trustRoots != .system { used.append(.trustRoots) }
        if clientIdentity != nil { used.append(.clientIdentity) }
        if minimumVersion != .v1_2 { used.append(.minimumVersion) }
        if pins.contains(where: \.isInForce) { used.append(.pins) }
        return used.first { !applicable.contains($0) }
    }
}

/// A setting of a ``TLSPolicy``, as ``NetworkError/tlsSettingUnavailable(_:)`` names it.
public enum TLSSetting: String, Sendable, Hashable, CaseIterable {
    /// ``TLSPolicy/trustRoots``.
    case trustRoots
    /// ``TLSPolicy/clientIdentity``.
    case clientIdentity
    /// ``TLSPolicy/minimumVersion``.
    case minimumVersion
    /// ``TLSPolicy/pins``.
    case pins
}

/// The oldest TLS version a ``TLSPolicy`` accepts.
public enum TLSVersion: String, Sendable, Hashable, CaseIterable {
    /// TLS 1.2 (RFC 5246).
    case v1_2 = "TLS 1.2"
    /// TLS 1.3 (RFC 8446).
    case v1_3 = "TLS 1.3"
}

/// The certificates a server's chain must lead to.
public enum TLSTrustRoots: Sendable, Hashable {
    /// The system's roots only.
    case system
    /// The system's roots and these, for a private CA beside public ones.
    case systemAnd([TLSCertificate])
    /// These certificates only, the system's ignored.
    case only([TLSCertificate])
}
