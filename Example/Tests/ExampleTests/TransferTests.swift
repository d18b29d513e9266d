import DemoClient
import DemoServer
import ECNetworking
import Foundation
import Testing

@Suite("Large bodies", .timeLimit(.minutes(1)))
struct TransferTests {
    @Test("a 5 MB body goes to the server and comes back byte for byte")
    func fiveMegabyteRoundTrip() async throws {
        try await withDemoServer { server in
            let client = makeClient(for: server)
            let body = Data.sample(count: 5 * 1_048_576)

            let echoed = try await client.send(EchoUploadRequest(body: body))

            #expect(echoed.count == body.count)
            #expect(echoed == body)
        }
    }
}
