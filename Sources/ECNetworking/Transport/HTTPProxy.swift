/// An HTTP proxy a transport sends through, with basic authentication when it asks for it.
///
/// `AsyncHTTPClientTransport` applies it (`AsyncHTTPClientTransport.Configuration.proxy`), sending
/// every request, `http` as well as `https`, through a `CONNECT` tunnel. FoundationNetworking
/// ignores a session's `connectionProxyDictionary`, so `URLSessionTransport` takes none.
///
/// The password is a secret: no description, debug description or `dump` of a proxy shows it.
public struct HTTPProxy: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The proxy's host name or address.
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user name of the proxy's basic authentication; `nil` for none.
    public var username: String?
    /// The password of the proxy's basic authentication.
    var password: String?

    /// A proxy at `host` and `port`, with basic authentication when `username` is given.
    public init(host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// The proxy's address; never its credentials.
    public var description: String {
        "HTTPProxy(\(host):\(port)\(username == nil ? "" : ", credentials redacted"))"
    }

    /// As ``description``.
    public var debugDescription: String { description }

    /// What `dump` and mirrors show: the address, and the credentials as redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["host": host, "port": port, "credentials": username == nil ? "none" : "<redacted>"])
    }
}
