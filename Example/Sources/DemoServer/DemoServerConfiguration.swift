/// The settings a ``DemoServer`` starts with.
public struct DemoServerConfiguration: Sendable {
    /// The username `POST /login` accepts.
    public var username: String
    /// The password `POST /login` accepts.
    public var password: String
    /// How long an issued token stays valid; tests use short lifetimes to exercise expiry.
    public var tokenLifetime: Duration
    /// How many times `GET /flaky` fails with `503` for each `?key=` before it succeeds.
    public var flakyFailureCount: Int
    /// The users the server starts with.
    public var initialUsers: [User]
    /// The products `GET /catalog` starts with.
    public var initialProducts: [Product]

    /// Creates a configuration; every parameter has a default suitable for the demo.
    public init(
        username: String = "demo",
        password: String = "secret",
        tokenLifetime: Duration = .seconds(3600),
        flakyFailureCount: Int = 1,
        initialUsers: [User] = User.seed,
        initialProducts: [Product] = Product.seed
    ) {
        self.username = username
        self.password = password
        self.tokenLifetime = tokenLifetime
        self.flakyFailureCount = flakyFailureCount
        self.initialUsers = initialUsers
        self.initialProducts = initialProducts
    }
}
