/// How long one streamed send's body may go without a byte, in place of the network's
/// ``NetworkConfiguration/streamIdleTimeout``: what a Server-Sent Events subscription sets from
/// ``ServerSentEventReconnection/idleTimeout``, whose heartbeats call for a limit of its own.
/// `nil`, the default, leaves the network's limit in force.
enum StreamIdleTimeout: CustomPropertyKey {
    static let defaultValue: Duration? = nil
}
