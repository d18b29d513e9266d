import ECNetworking
import Foundation
import TestSupport
import Testing

/// The Errors and Cancellation article's snippet for a request the server may have, against a
/// real server that reads the order and closes the connection without answering.
@Suite("Errors article: a request the server may have")
struct ReadmeRequestMayHaveBeenSentTests {
    /// An order, placed with a POST: sending it twice would place two.
    struct OrderRequest: Request {
        typealias Response = Void
        let item: String

        func buildRequest(with baseURL: URL) throws -> NetworkRequest {
            NetworkRequest(method: .post, url: baseURL.appendingPathComponent("orders"), body: .json(["item": item]))
        }
    }

    @Test("a POST whose connection closes unanswered is caught as one the server may have, and sent once")
    func orderToCheck() async throws {
        let server = try LoopbackHTTPServer { _ in .raw(Data()) }
        defer { server.stop() }
        let network = URLSessionNetwork(configuration: NetworkConfiguration(baseURL: server.baseURL))
        defer { network.invalidate() }
        var orderNeedsChecking = false

        do {
            _ = try await network.send(OrderRequest(item: "tea"))
        } catch let error as NetworkError where error.requestMayHaveBeenSent {
            // The server may have placed the order: look it up before placing it again.
            orderNeedsChecking = true
        }

        #expect(orderNeedsChecking)
        #expect(server.requests.filter { $0.path == "/orders" }.count == 1)
    }
}
