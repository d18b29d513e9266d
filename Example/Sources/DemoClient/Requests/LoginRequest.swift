import DemoServer
import ECNetworking
import Foundation

/// `POST /login`: exchanges a username and password for a bearer ``Token``.
///
/// It opts out of authentication: it is the request that obtains the token, and
/// `AuthenticatingAction` would otherwise hold it back to wait for the very login it performs.
public struct LoginRequest: DemoRequest {
    /// The decoded `{ "token": …, "expiresIn": … }` body.
    public typealias Response = Token

    /// The username and password to log in with.
    public let credentials: Credentials

    /// Creates a login with `credentials`.
    public init(credentials: Credentials) {
        self.credentials = credentials
    }

    /// `false`: the login is how a token is obtained in the first place.
    public var requiresAuthentication: Bool { false }

    /// Builds `POST /login` with the credentials as its JSON body.
    public func buildRequest(with baseURL: URL) -> NetworkRequest {
        NetworkRequest(method: .post, url: baseURL.appendingPathComponent("login"), body: credentials)
    }
}
