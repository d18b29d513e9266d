import Foundation
import Testing

@testable import ECNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("RedirectRewriter: what a followed redirect sends")
struct TransportRedirectRewriterTests {
    private let original = URL(string: "https://api.example.com/v1/users")!

    private func proposed(_ url: String) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.setValue("Bearer secret", forHTTPHeaderField: "authorization")
        request.setValue("key", forHTTPHeaderField: "X-API-Key")
        request.setValue("trace-1", forHTTPHeaderField: "X-Trace")
        return request
    }

    private func rewriter(_ sensitiveData: SensitiveData = .default) -> RedirectRewriter {
        RedirectRewriter(sensitiveData: sensitiveData, configuration: .ephemeral)
    }

    @Test("across origins, the sensitive headers go whatever their case; others stay")
    func crossOrigin() {
        let sensitiveData = SensitiveData(headers: ["AUTHORIZATION", "x-api-key"])

        let request = rewriter(sensitiveData).request(for: proposed("https://cdn.example.com/a"), originalURL: original)

        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(request.value(forHTTPHeaderField: "X-API-Key") == nil)
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "trace-1")
    }

    @Test("an explicit default port is the same origin")
    func defaultPort() {
        let request = rewriter().request(for: proposed("https://api.example.com:443/v2"), originalURL: original)

        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
    }

    @Test("a downgrade from https to http is another origin")
    func schemeDowngrade() {
        let request = rewriter().request(for: proposed("http://api.example.com/v1/users"), originalURL: original)

        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }
}
