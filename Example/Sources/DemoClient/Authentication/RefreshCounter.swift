/// Counts the logins a ``DemoAuthenticator`` has started, the client's side of the server's login count.
///
/// An actor because concurrent requests may each end up asking for a refresh.
public actor RefreshCounter {
    /// The number of logins started so far.
    public private(set) var count = 0

    /// Creates a counter at zero.
    public init() {}

    /// Counts one more login.
    func increment() {
        count += 1
    }
}
