import DemoServer
import Foundation
import Testing

@Suite("RequestRecorder")
struct RecorderTests {
    @Test func recordsMethodPathQueryAndHeaders() async throws {
        try await withDemoServer { server, client in
            _ = try await client.send("GET", "/echo?x=1", headers: ["X-Trace": "t-1"])
            _ = try await client.send("POST", "/echo", body: Data("{}".utf8))

            let requests = await server.recorder.requests(path: "/echo")
            #expect(requests.map(\.method) == ["GET", "POST"])
            #expect(requests.map(\.query) == ["x=1", nil])
            #expect(requests.first?.headers["x-trace"] == "t-1")
            #expect(requests.first?.headers["X-TRACE"] == "t-1")
            #expect(requests.first?.headers.values(for: "X-Trace") == ["t-1"])
        }
    }

    @Test func recordsFailedRequestsToo() async throws {
        try await withDemoServer { server, client in
            _ = try await client.get("/users")
            _ = try await client.get("/nowhere")

            #expect(await server.recorder.requests.map(\.path) == ["/users", "/nowhere"])
        }
    }

    @Test func headerLookupIgnoresCase() {
        let headers = RecordedHeaders([(name: "Accept", value: "a"), (name: "ACCEPT", value: "b")])

        #expect(headers["accept"] == "a, b")
        #expect(headers.values(for: "Accept") == ["a", "b"])
        #expect(headers.names == ["accept"])
        #expect(headers["missing"] == nil)
    }
}
