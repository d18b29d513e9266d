/// Where a send is registered, so that `cancelAll`, invalidation and the activity count reach it.
package enum SendRegistration {
    /// Registered in the registry for the span of the one send (``ActiveSendRegistry/track(_:_:)``):
    /// refused with ``NetworkError/invalidated`` once the registry is closed.
    case registeredIn(ActiveSendRegistry)
    /// Part of a send that is registered already, with this cancellation: a storage send's
    /// exchange with the network, which is registered from the send's start so that `cancelAll`
    /// and invalidation reach it while it reads its store too, and which must not be counted
    /// twice. It is not refused once the registry is closed: the send it belongs to started before,
    /// and `finishSendsAndInvalidate()` lets such a send finish.
    case partOf(SendCancellation)
}
