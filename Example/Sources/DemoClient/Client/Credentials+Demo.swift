import DemoServer

extension Credentials {
    /// The username and password a ``DemoServer`` accepts unless configured otherwise.
    public static let demo = Credentials(username: "demo", password: "secret")
}
