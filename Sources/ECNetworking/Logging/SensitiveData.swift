import Foundation

/// The names of the secrets a request or response may carry: one list each for headers, query
/// parameters and body fields, used everywhere the library shows or forwards a request.
///
/// Set it once in ``NetworkConfiguration/sensitiveData``; a name added there is
/// - redacted (shown as `<redacted>`) in every log line and the cURL line of the built-in logging,
/// - redacted in the request handed to ``NetworkConfiguration/metricsHandler``,
/// - and, for a header, removed when a redirect leads to another origin.
///
/// ```swift
/// configuration.sensitiveData.headers.insert("X-Tenant-Handle")
/// configuration.sensitiveData.bodyFields.insert("pin")
/// ```
///
/// The descriptions of ``NetworkRequest``, ``NetworkResponse``, ``HTTPHeaders``, ``NetworkError``,
/// ``RequestBody`` and ``RequestMetrics`` (`print`, `"\(value)"`, `debugPrint`, `dump`,
/// `localizedDescription`) redact too. They have no configuration at hand, so they use
/// ``default`` plus every name added to the `sensitiveData` of a ``HTTPNetwork`` created so
/// far in the process (a name only ever gets added there, never removed).
///
/// How a name matches a listed one: both are compared by their ASCII letters and digits only,
/// without regard to case (`X-Api-Key`, `x_api_key` and `XAPIKEY` are the same name). A listed
/// name of five or more letters and digits matches every name that contains it, so `password`
/// also covers `newPassword`, `current_password`, `passwordConfirmation` and `user[password]`,
/// and `token` covers `access_token` and `X-Auth-Token`. A shorter listed name (`sig`, `key`,
/// `auth`) matches only the whole name, so that `sig` leaves `signup` and `design` visible.
public struct SensitiveData: Sendable, Hashable {
    /// Header names whose values are redacted and which are not forwarded to another origin on
    /// a redirect. By default ``defaultHeaders``.
    public var headers: Set<String>
    /// Query parameter names whose values are redacted, in the URL's query and fragment and in
    /// ``NetworkRequest/queryItems``. By default ``defaultQueryParameters``.
    public var queryParameters: Set<String>
    /// JSON object keys, at any depth, and form field names whose values are redacted in body
    /// previews. A redacted JSON value is replaced whole, even when it is an object or an array.
    /// By default ``defaultBodyFields``.
    public var bodyFields: Set<String>

    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, and any header whose name
    /// contains `Api-Key`, `Token`, `Secret` or `Password`, such as `X-Api-Key` and `X-Auth-Token`.
    public static let defaultHeaders: Set<String> = [
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "Api-Key", "Token", "Secret", "Password",
    ]

    /// OAuth and API-key parameters (`access_token`, `refresh_token`, `id_token`, `token`,
    /// `api_key`, `key`, `auth`, `client_secret`, `password`) and the credentials of pre-signed
    /// URLs (`X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`, `signature`, `sig`).
    public static let defaultQueryParameters: Set<String> = [
        "access_token", "refresh_token", "id_token", "token", "api_key", "apikey", "key", "auth", "password",
        "passwd", "secret", "client_secret", "signature", "sig", "credential", "X-Amz-Signature",
        "X-Amz-Credential", "X-Amz-Security-Token",
    ]

    /// `password` (and so `newPassword`, `currentPassword`, `password_confirmation`), `passwd`,
    /// `secret` (`clientSecret`), `token` (`access_token`, `refreshToken`), `api_key`, `apiKey`,
    /// `private_key`, `credential` and `authorization`.
    public static let defaultBodyFields: Set<String> = [
        "password", "passwd", "secret", "token", "api_key", "apikey", "private_key", "credential", "authorization",
    ]

    /// The default names, which descriptions use.
    public static let `default` = SensitiveData()

    /// Creates the lists; each defaults to the library's list described on its property.
    public init(
        headers: Set<String> = defaultHeaders,
        queryParameters: Set<String> = defaultQueryParameters,
        bodyFields: Set<String> = defaultBodyFields
    ) {
        self.headers = headers
        self.queryParameters = queryParameters
        self.bodyFields = bodyFields
    }

    /// Whether a header with this name holds a secret.
    public func isSensitiveHeader(_ name: String) -> Bool {
        headerNames.matches(name)
    }

    /// Whether a query parameter with this (percent-decoded) name holds a secret.
    public func isSensitiveQueryParameter(_ name: String) -> Bool {
        queryParameterNames.matches(name)
    }

    /// Whether a JSON key or form field with this name holds a secret.
    public func isSensitiveBodyField(_ name: String) -> Bool {
        bodyFieldNames.matches(name)
    }

    /// Whether `request` carries a credential the server could tie to a user: a sensitive header,
    /// userinfo in its URL, or a sensitive query parameter in its URL or ``NetworkRequest/queryItems``.
    /// The body is not looked at. Response storage uses this to keep per-user answers apart.
    func carriesCredentials(_ request: NetworkRequest) -> Bool {
        Redaction(self).carriesCredentials(request)
    }
}

extension SensitiveData {
    // Normalizing a list costs far more than comparing it with the default one, and every
    // `isSensitive…` call, storage send and network needs one: the default lists are normalized
    // once, and only a list the user changed is normalized where it is used.

    /// ``headers``, prepared for matching.
    var headerNames: SensitiveNames {
        headers == Self.defaultHeaders ? SensitiveNames.defaultHeaders : SensitiveNames(headers)
    }

    /// ``queryParameters``, prepared for matching.
    var queryParameterNames: SensitiveNames {
        queryParameters == Self.defaultQueryParameters
            ? SensitiveNames.defaultQueryParameters : SensitiveNames(queryParameters)
    }

    /// ``bodyFields``, prepared for matching.
    var bodyFieldNames: SensitiveNames {
        bodyFields == Self.defaultBodyFields ? SensitiveNames.defaultBodyFields : SensitiveNames(bodyFields)
    }
}
