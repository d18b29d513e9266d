import Foundation

/// What a message's `Cache-Control` and `Vary` headers (RFC 9111 §5.2, RFC 9110 §12.5.5) say
/// about keeping a response in a ``ResponseStore``.
struct CacheControl: Sendable {
    /// `no-store`: the response must not be kept at all.
    var forbidsStoring = false
    /// `private`: the response is for one user, so it is kept only in a ``StoragePartition``.
    var isPrivate = false
    /// The request header names `Vary` lists, lowercased and each once; `*` stays as it is.
    var variedHeaderNames: [String] = []

    /// The directives in `headers`, every `Cache-Control` and `Vary` field included.
    init(_ headers: HTTPHeaders) {
        for directive in Self.listItems(headers.values(for: "Cache-Control")) {
            // A directive may carry an argument (`private="Set-Cookie"`), which still makes the
            // response private: a field-limited `private` is treated as a whole one.
            let name = directive.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            switch name.lowercased() {
            case "no-store": forbidsStoring = true
            case "private": isPrivate = true
            default: continue
            }
        }
        // Each name once: a repeated one (`Vary: Accept` from two layers) would otherwise keep its
        // values once per repeat, and the entry would never match the request it was stored for.
        var seen = Set<String>()
        variedHeaderNames = Self.listItems(headers.values(for: "Vary")).map { $0.lowercased() }.filter {
            seen.insert($0).inserted
        }
    }

    /// Whether `Vary: *` says the response depends on more than the request headers, so no later
    /// request can be known to match it.
    var variesOnEverything: Bool {
        variedHeaderNames.contains("*")
    }

    /// The comma-separated items of every value, trimmed, without empty ones.
    private static func listItems(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}
