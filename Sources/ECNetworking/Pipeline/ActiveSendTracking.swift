/// A network whose sends an ``ActiveSendRegistry`` tracks. A Server-Sent Events subscription, which
/// outlives each of its connections, registers there for its whole life, so that the network's
/// `cancelAll(of:)` and invalidation reach it between connections as well as during one.
package protocol ActiveSendTracking: Network {
    /// The sends and subscriptions in progress.
    var activeSends: ActiveSendRegistry { get }
}
