import Foundation

/// An X.509 certificate, as DER bytes, for a ``TLSPolicy``.
public struct TLSCertificate: Sendable, Hashable {
    /// The certificate's DER encoding.
    public let der: Data

    /// A certificate from its DER encoding.
    public init(der: Data) {
        self.der = der
    }

    /// The one certificate in `pem`; throws ``TLSPolicyError/noCertificate`` when `pem` holds
    /// none, and takes the first when it holds several (see ``all(inPEM:)``).
    public init(pem: String) throws {
        guard let first = try Self.all(inPEM: pem).first else { throw TLSPolicyError.noCertificate }
        self = first
    }

    /// Every certificate in `pem`, in order: the `-----BEGIN CERTIFICATE-----` blocks a chain or
    /// bundle file holds. Throws ``TLSPolicyError/noCertificate`` when there is none and
    /// ``TLSPolicyError/malformedPEM`` when a block's base64 cannot be read.
    public static func all(inPEM pem: String) throws -> [TLSCertificate] {
        let certificates = try PEMBlocks.decode(pem, label: "CERTIFICATE").map(TLSCertificate.init(der:))
        guard !certificates.isEmpty else { throw TLSPolicyError.noCertificate }
        return certificates
    }
}

/// Why a ``TLSPolicy`` part could not be made from what it was given.
public enum TLSPolicyError: Error, Sendable, Hashable {
    /// The text holds no certificate block.
    case noCertificate
    /// The text holds no private key block.
    case noPrivateKey
    /// A block's base64 cannot be read.
    case malformedPEM
}

/// The base64 blocks of a PEM text (RFC 7468).
enum PEMBlocks {
    /// The decoded bytes of every block whose label is `label` (or, for `label` `nil`, of every
    /// block whose label ends with `PRIVATE KEY`), in order.
    static func decode(_ pem: String, label: String?) throws -> [Data] {
        var blocks: [Data] = []
        var current: (label: String, base64: String)?
        for line in pem.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----") {
                current = (String(trimmed.dropFirst(11).dropLast(5)), "")
            } else if trimmed.hasPrefix("-----END "), let block = current {
                current = nil
                let wanted = label.map { block.label == $0 } ?? block.label.hasSuffix("PRIVATE KEY")
                guard wanted else { continue }
                guard let data = Data(base64Encoded: block.base64), !data.isEmpty else {
                    throw TLSPolicyError.malformedPEM
                }
                blocks.append(data)
            } else if current != nil {
                current?.base64 += trimmed
            }
        }
        return blocks
    }
}
