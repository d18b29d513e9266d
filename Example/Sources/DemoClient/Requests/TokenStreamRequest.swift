import DemoServer
import ECNetworking
import Foundation

/// `GET /stream/tokens?count=N&intervalMs=D`: an NDJSON stream of N ``StreamToken`` lines, D
/// milliseconds apart, to read with `stream(_:)` as the lines arrive.
///
/// ```swift
/// let stream = try await client.network.stream(TokenStreamRequest(count: 5, intervalMilliseconds: 100))
/// for try await line in stream.lines {
///     print(try TokenStreamRequest.token(from: line).token)
/// }
/// ```
public struct TokenStreamRequest: DemoRequest {
    /// The whole body, for a plain `send`; streamed, the lines come one by one instead.
    public typealias Response = Data

    /// How many tokens the server writes.
    public let count: Int
    /// How long the server waits between two lines.
    public let intervalMilliseconds: Int

    /// Creates a stream of `count` tokens, `intervalMilliseconds` apart.
    public init(count: Int, intervalMilliseconds: Int) {
        self.count = count
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `GET /stream/tokens`, accepting NDJSON.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(
            headers: ["Accept": "application/x-ndjson"],
            url: baseURL.appendingPathComponent("stream/tokens"),
            queryItems: [
                URLQueryItem(name: "count", value: String(count)),
                URLQueryItem(name: "intervalMs", value: String(intervalMilliseconds)),
            ])
    }

    /// The token one line of the stream carries.
    public static func token(from line: String) throws -> StreamToken {
        try JSONDecoder().decode(StreamToken.self, from: Data(line.utf8))
    }
}
