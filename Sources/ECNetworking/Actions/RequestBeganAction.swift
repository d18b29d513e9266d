/// An action told that a request was handed to the transport, as it was sent: after the
/// will-begin actions, with default headers, `Content-Type` and the encoded body.
///
/// It only observes; keep it quick, since it runs on the request's path.
public protocol RequestBeganAction: Action {
    /// Called once per attempt, just before the request goes on the wire.
    func requestBegan(_ request: NetworkRequest)
}
