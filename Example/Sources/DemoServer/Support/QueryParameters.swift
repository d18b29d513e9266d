internal import Hummingbird

extension Request {
    /// The query parameter `name` as an integer within `range`, or `defaultValue` when absent.
    ///
    /// Out-of-range and non-numeric values are rejected with `400` rather than clamped, so a client bug shows up.
    func integerQueryParameter(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        try integerQueryParameter(name, in: range) ?? defaultValue
    }

    /// The query parameter `name` as an integer within `range`, or `nil` when absent; rejected with
    /// `400` like the form with a default.
    func integerQueryParameter(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = uri.queryParameters.get(name) else {
            return nil
        }
        guard let value = Int(text), range.contains(value) else {
            throw DemoServerError.badRequest(
                "Query parameter `\(name)` must be an integer from \(range.lowerBound) to \(range.upperBound)."
            )
        }
        return value
    }
}
