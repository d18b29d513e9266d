import ECNetworking
import Foundation
import Testing

@Suite("Descriptions of responses hide secrets")
struct ResponseDescriptionTests {
    @Test("a response shows its status, host and path, not its cookies, body secrets, URL or request secrets")
    func response() throws {
        let response = Planted.response
        let texts = renderings(of: response)

        expectNoSecrets(in: texts, Planted.coveredByDefaults)
        for text in texts.values {
            #expect(text.contains("401"))
            #expect(text.contains("api.example.com/v1/login"))
        }
        #expect(String(reflecting: response).contains(#""error":"expired""#))
    }

    @Test("a stored response built with a cookie header shows no cookie")
    func storedResponse() throws {
        let stored = StoredResponse(
            statusCode: 200, headers: ["Set-Cookie": "id=\(Planted.responseCookie)", "ETag": "\"v1\""],
            body: Data(Planted.responseBody.utf8), storedAt: Date(timeIntervalSince1970: 0))
        let texts = renderings(of: stored)

        expectNoSecrets(in: texts, [Planted.responseCookie, Planted.responseToken])
        #expect(texts["String(describing:)"]?.contains("v1") == true)
    }
}
