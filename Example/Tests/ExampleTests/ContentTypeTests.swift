import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Content-type validation end to end", .timeLimit(.minutes(1)))
struct ContentTypeTests {
    @Test("JSON sent as text/html or text/plain decodes, as the libraries ECNetworking replaces read it")
    func mislabelledJSONDecodes() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            for contentType in ["text/html; charset=utf-8", "text/plain"] {
                let reply = try await client.send(MislabelledRequest(contentType: contentType))
                #expect(reply == MislabelledReply(contentType: contentType))
            }
        }
    }

    @Test("an HTML page fails with unacceptableContentType carrying the page, not with a decoding error")
    func pageIsRefused() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)

            let error = await #expect(throws: NetworkError.self) {
                try await client.send(MislabelledRequest(page: true))
            }

            guard case .unacceptableContentType(let response)? = error else {
                Issue.record("expected unacceptableContentType, got \(String(describing: error))")
                return
            }
            #expect(response.statusCode == 200)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(String(decoding: response.body, as: UTF8.self).contains("Sign in"))
        }
    }

    @Test("a strict request refuses JSON sent as text/html before decoding, carrying the response")
    func strictRequestRefuses() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)

            let error = await #expect(throws: NetworkError.self) {
                try await client.send(MislabelledRequest(strict: true))
            }

            guard case .unacceptableContentType? = error else {
                Issue.record("expected unacceptableContentType, got \(String(describing: error))")
                return
            }
            // The body would have decoded: the type alone was refused.
            #expect(
                error?.decodeBody(MislabelledReply.self) == MislabelledReply(contentType: "text/html; charset=utf-8"))
        }
    }

    @Test(
        "JSON types the request accepts decode, strict or not",
        arguments: ["application/json", "application/json; charset=utf-8", "application/vnd.demo+json"])
    func jsonTypesPass(contentType: String) async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            for strict in [false, true] {
                let reply = try await client.send(MislabelledRequest(contentType: contentType, strict: strict))
                #expect(reply == MislabelledReply(contentType: contentType))
            }
        }
    }

    @Test("with validation switched off, an HTML page fails as a decoding error")
    func validationCanBeSwitchedOff() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server) { $0.validatesContentType = false }

            let error = await #expect(throws: NetworkError.self) {
                try await client.send(MislabelledRequest(page: true))
            }
            guard case .decodingFailed? = error else {
                Issue.record("expected decodingFailed, got \(String(describing: error))")
                return
            }
        }
    }
}
