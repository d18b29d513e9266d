import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The servers `scripts/interop.sh` started for this process: nginx on three ports of 127.0.0.1
/// (HTTP/1.1; HTTPS with HTTP/2; HTTPS that requires a client certificate), tinyproxy in front of
/// it, and the throwaway CA and certificates they use. `nil` when the suite runs without the
/// script, which then skips every interop test.
struct InteropServers: Sendable {
    let httpPort: Int
    let httpsPort: Int
    let mutualTLSPort: Int
    let proxyPort: Int
    let proxyUser: String
    let proxyPassword: String
    /// The script's private folder: certificates, keys, nginx's and tinyproxy's logs.
    let directory: URL

    static let current: InteropServers? = {
        let environment = ProcessInfo.processInfo.environment
        func port(_ name: String) -> Int? { environment["ECNETWORKING_INTEROP_\(name)_PORT"].flatMap(Int.init) }
        guard let http = port("HTTP"), let https = port("HTTPS"), let mutualTLS = port("MTLS"),
            let proxy = port("PROXY"), let user = environment["ECNETWORKING_INTEROP_PROXY_USER"],
            let password = environment["ECNETWORKING_INTEROP_PROXY_PASSWORD"],
            let directory = environment["ECNETWORKING_INTEROP_DIRECTORY"]
        else { return nil }
        return InteropServers(
            httpPort: http, httpsPort: https, mutualTLSPort: mutualTLS, proxyPort: proxy, proxyUser: user,
            proxyPassword: password, directory: URL(fileURLWithPath: directory))
    }()

    /// nginx over plain HTTP/1.1, by address.
    var http: URL { URL(string: "http://127.0.0.1:\(httpPort)")! }
    /// nginx over TLS (HTTP/2 offered), by the name its certificate carries.
    var https: URL { URL(string: "https://localhost:\(httpsPort)")! }
    /// nginx over TLS, requiring a client certificate the interop CA signed.
    var mutualTLS: URL { URL(string: "https://localhost:\(mutualTLSPort)")! }

    var certificateAuthorityPath: String { directory.appendingPathComponent("ca.pem").path }
    var clientCertificatePath: String { directory.appendingPathComponent("client.pem").path }
    var clientKeyPath: String { directory.appendingPathComponent("client.key").path }

    /// Every request nginx has logged so far.
    func accessLog() throws -> [AccessLogEntry] {
        let text = try String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)
        return text.split(separator: "\n").compactMap(AccessLogEntry.init)
    }

    /// What tinyproxy has logged so far.
    func proxyLog() throws -> String {
        try String(contentsOf: directory.appendingPathComponent("tinyproxy.log"), encoding: .utf8)
    }
}

/// One line of nginx's access log, in the script's `interop` format.
struct AccessLogEntry: Sendable, Equatable {
    let port: Int
    /// `HTTP/1.1` or `HTTP/2.0`.
    let httpVersion: String
    let method: String
    let path: String
    /// The request's `id` query parameter, `-` when it had none.
    let id: String
    let status: Int
    /// nginx's serial number of the connection that carried the request.
    let connection: Int
    /// How many requests that connection had carried, this one included.
    let connectionRequests: Int

    init?(_ line: Substring) {
        let fields = line.split(separator: " ").map(String.init)
        guard fields.count >= 8, let port = Int(fields[0]), let status = Int(fields[5]),
            let connection = Int(fields[6]), let requests = Int(fields[7])
        else { return nil }
        self.port = port
        self.httpVersion = fields[1]
        self.method = fields[2]
        self.path = fields[3]
        self.id = fields[4]
        self.status = status
        self.connection = connection
        self.connectionRequests = requests
    }
}

/// A run's own request ids, so that a test finds its requests in nginx's log whatever else ran.
struct RequestIDs: Sendable {
    let prefix = UUID().uuidString.prefix(8).lowercased()

    func id(_ index: Int) -> String { "\(prefix)-\(index)" }

    /// The log entries of this run's requests, as the client sent them: not the request nginx
    /// makes to itself to answer one only once its body is read (`/answer-item`).
    func entries(in log: [AccessLogEntry]) -> [AccessLogEntry] {
        log.filter { $0.id.hasPrefix(prefix + "-") && $0.path != "/answer-item" }
    }
}
