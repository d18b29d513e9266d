import ECNetworking
import Foundation
import Testing

@Suite("Descriptions of requests and headers hide secrets")
struct RequestDescriptionTests {
    private struct PasswordChange: Encodable, Sendable {
        let newPassword: String
        let username: String
    }

    @Test("HTTPHeaders and each field show names and ordinary values, never a sensitive value")
    func headers() throws {
        let headers = Planted.request.headers
        var texts = renderings(of: headers)
        for field in headers {
            for (name, text) in renderings(of: field) { texts["\(field.name) \(name)"] = text }
        }
        for (name, text) in renderings(of: headers.fields) { texts["fields \(name)"] = text }

        expectNoSecrets(in: texts, Planted.coveredByDefaults)
        for text in [String(describing: headers), String(reflecting: headers)] {
            #expect(text.contains("X-Trace"))
            #expect(text.contains("trace-1"))
            #expect(text.contains("Authorization"))
        }
        #expect(String(describing: headers.fields[0]) == "Authorization: <redacted>")
    }

    @Test("a request shows its method, host and path, not its userinfo, query secrets, headers or body")
    func request() throws {
        var request = Planted.request
        request.queryItems = [
            URLQueryItem(name: "refresh_token", value: "PLANTED-ITEM-1"), URLQueryItem(name: "page", value: "3"),
        ]
        let texts = renderings(of: request)

        expectNoSecrets(in: texts, Planted.coveredByDefaults + ["PLANTED-ITEM-1"])
        for text in texts.values {
            #expect(text.contains("POST"))
            #expect(text.contains("api.example.com/v1/login"))
        }
        #expect(String(describing: request).contains("page=3"))
        #expect(String(describing: request).contains("refresh_token=<redacted>"))
    }

    @Test("every kind of body is described without a sensitive field's value")
    func bodies() throws {
        let bodies: [RequestBody] = [
            .json(PasswordChange(newPassword: "PLANTED-JSON-1", username: "ada")),
            .data(Data(Planted.body.utf8), contentType: "application/json"),
            .form([URLQueryItem(name: "username", value: "ada"), URLQueryItem(name: "password", value: "PLANTED-FORM")]
            ),
            .text("password=PLANTED-TEXT", contentType: "application/x-www-form-urlencoded"),
        ]
        for body in bodies {
            let request = NetworkRequest(method: .put, url: URL(string: "https://api.example.com/me")!, body: body)
            var texts = renderings(of: body)
            for (name, text) in renderings(of: request) { texts["request \(name)"] = text }
            expectNoSecrets(in: texts, Planted.coveredByDefaults + ["PLANTED-JSON-1", "PLANTED-FORM", "PLANTED-TEXT"])
        }
    }
}
