extension NetworkRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The method and the URL with its ``queryItems``, such as
    /// `GET https://api.example.com/v1/users?access_token=<redacted>&page=2`: userinfo and the
    /// values of sensitive parameters are redacted as described on ``SensitiveData``.
    public var description: String {
        "\(method.rawValue) \(Redaction.forDescriptions.url(of: self))"
    }

    /// The ``description``, the headers (sensitive values redacted) and what kind of body it has.
    public var debugDescription: String {
        "NetworkRequest(\(description), headers: \(headers), body: \(body.map(String.init(describing:)) ?? "none"))"
    }

    /// The request for `dump`: the URL as redacted text, the headers and body through their own
    /// redacting mirrors, and the number of custom properties, whose values may be anything.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method.rawValue,
                "url": Redaction.forDescriptions.url(of: self),
                "headers": headers,
                "body": body as Any,
                "timeout": timeout as Any,
                "cachePolicy": cachePolicy as Any,
                "acceptableStatusCodes": acceptableStatusCodes as Any,
                "validatesContentType": validatesContentType as Any,
                "customProperties": "\(customProperties.count) properties",
            ],
            displayStyle: .struct)
    }
}
