import Foundation
import Testing

/// Every text a value becomes in the hands of a person debugging: `print` and interpolation,
/// `debugPrint` and `String(reflecting:)`, `dump`, and, for an error, its `localizedDescription`.
func renderings(of value: Any) -> [String: String] {
    var dumped = ""
    dump(value, to: &dumped)
    var texts = [
        "String(describing:)": String(describing: value),
        "interpolation": "\(value)",
        "String(reflecting:)": String(reflecting: value),
        "dump": dumped,
    ]
    if let error = value as? any Error {
        texts["localizedDescription"] = error.localizedDescription
    }
    return texts
}

/// Records an issue for every text in `texts` that contains one of `secrets`.
func expectNoSecrets(
    in texts: [String: String],
    _ secrets: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for (name, text) in texts.sorted(by: { $0.key < $1.key }) {
        for secret in secrets where text.contains(secret) {
            Issue.record("\(name) shows \(secret):\n\(text)", sourceLocation: sourceLocation)
        }
    }
}
