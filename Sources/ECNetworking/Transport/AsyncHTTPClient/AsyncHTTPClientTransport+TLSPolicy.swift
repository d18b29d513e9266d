#if AsyncHTTPClient
    import NIOSSL

    extension TLSPolicy {
        /// The settings of a policy `AsyncHTTPClientTransport` applies; pins it cannot check.
        static let appliedByAsyncHTTPClient: Set<TLSSetting> = [.trustRoots, .clientIdentity, .minimumVersion]

        /// The policy as SwiftNIO's TLS configuration for a client: its roots of trust, client
        /// certificate and key, and minimum version, over the defaults.
        func clientTLSConfiguration() throws -> TLSConfiguration {
            var tls = TLSConfiguration.makeClientConfiguration()
            switch trustRoots {
            case .system:
                break
            case .systemAnd(let certificates):
                tls.additionalTrustRoots = [.certificates(try certificates.map { try $0.nioCertificate })]
            case .only(let certificates):
                tls.trustRoots = .certificates(try certificates.map { try $0.nioCertificate })
            }
            if let clientIdentity {
                tls.certificateChain = try clientIdentity.certificateChain.map { .certificate(try $0.nioCertificate) }
                tls.privateKey = .privateKey(
                    try NIOSSLPrivateKey(bytes: Array(clientIdentity.privateKeyPEM.utf8), format: .pem))
            }
            switch minimumVersion {
            case .v1_2: tls.minimumTLSVersion = .tlsv12
            case .v1_3: tls.minimumTLSVersion = .tlsv13
            }
            return tls
        }
    }

    extension TLSCertificate {
        fileprivate var nioCertificate: NIOSSLCertificate {
            get throws { try NIOSSLCertificate(bytes: Array(der), format: .der) }
        }
    }
#endif
