import Foundation

/// Tells whether a request carries a credential, with the names the logging redaction knows as
/// secret (its defaults and the network's own), so the two never disagree about what a secret is.
///
/// A request with a credential is stored only in a ``StoragePartition``: an entry without one must
/// be safe to serve to anyone.
struct CredentialDetector: Sendable {
    private let redactions: [Redaction]

    /// A detector for the default secret names and those of `options`.
    init(options: LoggingOptions) {
        redactions = [Redaction(options: LoggingOptions()), Redaction(options: options)]
    }

    /// Whether `request` has a credential header or a credential query parameter.
    func carriesCredential(_ request: NetworkRequest) -> Bool {
        if request.headers.contains(where: { isCredentialHeader($0.name) }) { return true }
        guard let url = try? request.urlWithQuery(), url.query != nil else { return false }
        let text = url.absoluteString
        // Redaction rewrites exactly the values of credential parameters, so any change means one.
        return redactions.contains { $0.url(url) != text }
    }

    /// Whether a header of this name holds a credential.
    func isCredentialHeader(_ name: String) -> Bool {
        // An empty value comes back as the placeholder only when the name is a secret one.
        redactions.contains { $0.headerValue(name: name, value: "") == Redaction.placeholder }
    }
}
