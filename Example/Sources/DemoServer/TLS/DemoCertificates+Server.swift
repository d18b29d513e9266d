internal import NIOSSL

extension DemoCertificates {
    /// The server's side of TLS: its certificate and key, TLS 1.2 or later.
    func serverConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: [
                .certificate(try NIOSSLCertificate(bytes: Array(serverCertificatePEM.utf8), format: .pem))
            ],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(serverPrivateKeyPEM.utf8), format: .pem)))
    }
}
