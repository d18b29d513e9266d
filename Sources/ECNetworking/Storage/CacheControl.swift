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
            let name = directive.unicodeScalars.split(separator: "=", maxSplits: 1).first.map(Self.string) ?? ""
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
    ///
    /// Split by Unicode scalar: a comma or `=` that a combining mark follows is one character
    /// with it, and a split by characters would miss it (`no-store,\u{301}x` hid `no-store`).
    private static func listItems(_ values: [String]) -> [String] {
        values.flatMap { $0.unicodeScalars.split(separator: ",") }
            .map { string($0).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    private static func string(_ scalars: Substring.UnicodeScalarView) -> String {
        String(Substring(scalars))
    }
}
