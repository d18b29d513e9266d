import DemoClient
import DemoServer
import ECNetworking
import Foundation

extension Tour {
    /// Step 12: a second server, on HTTPS with a certificate made in memory by an authority of
    /// its own, as a staging server has. `AsyncHTTPClientTransport` trusts it once a `TLSPolicy`
    /// adds the authority, and refuses it without; a pin it cannot check, and roots of trust
    /// `URLSessionTransport` cannot take, fail every send before a byte goes out.
    func https() async throws {
        console.step(12, "HTTPS with a certificate of the server's own, trusted through a TLSPolicy")
        let certificates = try DemoCertificates()
        let server = try await DemoServer.start(tls: certificates)
        do {
            try await https(to: server, certificates: certificates)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func https(to server: DemoServer, certificates: DemoCertificates) async throws {
        let authority = try TLSCertificate(pem: certificates.certificateAuthorityPEM)
        let trusting = TLSPolicy(trustRoots: .systemAnd([authority]))

        let products = try await send(CatalogRequest(), to: server, tls: trusting)
        console.result("GET \(server.baseURL.absoluteString)/catalog: \(products.count) products")
        console.passed("the server's authority added to the system's roots: the certificate is trusted")

        do {
            _ = try await send(CatalogRequest(), to: server, tls: .system)
            throw TourFailure("a certificate no system root signed was trusted")
        } catch NetworkError.transport(let error) {
            try TourFailure.check(
                error.code == .secureConnectionFailed, "the untrusted certificate failed with \(error.code)")
            console.passed("the system's roots alone: .secureConnectionFailed, the certificate refused")
        }

        let before = await server.recorder.requests.count
        var pinned = trusting
        pinned.pins = [TLSPin(host: "localhost", sha256: [certificates.serverPublicKeySHA256])]
        do {
            _ = try await send(CatalogRequest(), to: server, tls: pinned)
            throw TourFailure("a pin the transport cannot check was accepted")
        } catch NetworkError.tlsSettingUnavailable(let setting) {
            let after = await server.recorder.requests.count
            try TourFailure.check(setting == .pins && after == before, "the pinned send reached the server")
            console.passed("a pin of the server's key: refused before a byte was sent (.tlsSettingUnavailable(.pins))")
        }

        let session = URLSessionTransport(configuration: .ephemeral, tls: trusting)
        defer { session.invalidate() }
        do {
            _ = try await HTTPNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL), transport: session)
                .send(CatalogRequest())
            throw TourFailure("URLSessionTransport applied roots of trust it cannot take")
        } catch NetworkError.tlsSettingUnavailable(let setting) {
            try TourFailure.check(setting == .trustRoots, "URLSessionTransport refused \(setting)")
            console.passed("URLSessionTransport with the same policy: refused (.tlsSettingUnavailable(.trustRoots))")
        }
    }

    /// Sends `request` to `server` over a new `AsyncHTTPClientTransport` with `tls`, and shuts the
    /// transport down whether the send succeeded or not.
    private func send<R: Request>(_ request: R, to server: DemoServer, tls: TLSPolicy) async throws -> R.Response {
        let transport = AsyncHTTPClientTransport(configuration: AsyncHTTPClientTransport.Configuration(tls: tls))
        let network = HTTPNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL), transport: transport)
        let result: Result<R.Response, any Error>
        do {
            result = .success(try await network.send(request))
        } catch {
            result = .failure(error)
        }
        try await transport.shutdown()
        return try result.get()
    }
}
