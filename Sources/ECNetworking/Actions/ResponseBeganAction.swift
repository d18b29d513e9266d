/// An action told that a response arrived, before the completed actions may change it.
///
/// It only observes; keep it quick, since it runs on the request's path.
public protocol ResponseBeganAction: Action {
    /// Called once per attempt that got a response, with the request as it was sent.
    func responseBegan(request: NetworkRequest, response: NetworkResponse)
}
