import ECNetworking
import Foundation

/// `GET /events`: Server-Sent Events 1 to `count`, `tick` events and a last `done`, to read with
/// `serverSentEvents(_:reconnection:)`.
///
/// ```swift
/// let request = TickEventsRequest(count: 4, intervalMilliseconds: 100, dropAfter: 2)
/// for try await event in client.network.serverSentEvents(request, reconnection: .init()) {
///     print(event.id ?? "", event.data)
///     if event.event == "done" { break }
/// }
/// ```
public struct TickEventsRequest: DemoRequest {
    /// Nothing: the events are the answer.
    public typealias Response = Void

    /// How many events the server sends in all.
    public let count: Int
    /// How long the server waits between two events.
    public let intervalMilliseconds: Int
    /// The reconnection delay the server asks for in its `retry` field.
    public let retryMilliseconds: Int
    /// The event after which the server drops the connection, or `nil` for none.
    public let dropAfter: Int?
    /// The event after which the server ends the stream in the middle of the next, or `nil`.
    public let cutAfter: Int?

    /// Creates a subscription to `count` events, `intervalMilliseconds` apart, asking clients to
    /// wait `retryMilliseconds` before reconnecting. With `dropAfter`, the server drops the
    /// connection once, shortly after that event; with `cutAfter`, it ends the stream once,
    /// cleanly, halfway through the event after that one.
    public init(
        count: Int, intervalMilliseconds: Int, retryMilliseconds: Int = 1_000, dropAfter: Int? = nil,
        cutAfter: Int? = nil
    ) {
        self.count = count
        self.intervalMilliseconds = intervalMilliseconds
        self.retryMilliseconds = retryMilliseconds
        self.dropAfter = dropAfter
        self.cutAfter = cutAfter
    }

    /// `false`: the endpoint is public.
    public var requiresAuthentication: Bool { false }

    /// Builds `GET /events`; the subscription adds `Accept: text/event-stream` and, when it
    /// reconnects, `Last-Event-ID`.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        var queryItems = [
            URLQueryItem(name: "count", value: String(count)),
            URLQueryItem(name: "intervalMs", value: String(intervalMilliseconds)),
            URLQueryItem(name: "retryMs", value: String(retryMilliseconds)),
        ]
        if let dropAfter {
            queryItems.append(URLQueryItem(name: "dropAfter", value: String(dropAfter)))
        }
        if let cutAfter {
            queryItems.append(URLQueryItem(name: "cutAfter", value: String(cutAfter)))
        }
        return NetworkRequest(url: baseURL.appendingPathComponent("events"), queryItems: queryItems)
    }
}
