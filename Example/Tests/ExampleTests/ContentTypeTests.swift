import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Content-type validation end to end", .timeLimit(.minutes(1)))
struct ContentTypeTests {
    @Test("JSON sent as text/html fails with unacceptableContentType, before decoding, carrying the response")
    func htmlIsRefused() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)

            let error = await #expect(throws: NetworkError.self) {
                try await client.send(MislabelledRequest(contentType: "text/html; charset=utf-8"))
            }

            guard case .unacceptableContentType(let response)? = error else {
                Issue.record("expected unacceptableContentType, got \(String(describing: error))")
                return
            }
            #expect(response.statusCode == 200)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            // The body would have decoded: the type alone was refused.
            #expect(
                error?.decodeBody(MislabelledReply.self) == MislabelledReply(contentType: "text/html; charset=utf-8"))
        }
    }

    @Test(
        "JSON types the request accepts decode",
        arguments: ["application/json", "application/json; charset=utf-8", "application/vnd.demo+json"])
    func jsonTypesPass(contentType: String) async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)

            let reply = try await client.send(MislabelledRequest(contentType: contentType))

            #expect(reply == MislabelledReply(contentType: contentType))
        }
    }

    @Test("with validation switched off, the mislabelled JSON decodes")
    func validationCanBeSwitchedOff() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server) { $0.validatesContentType = false }

            let reply = try await client.send(MislabelledRequest(contentType: "text/html"))

            #expect(reply == MislabelledReply(contentType: "text/html"))
        }
    }
}
