internal import Hummingbird

extension Request {
    /// The query parameter `name` as an integer within `range`, or `defaultValue` when absent.
    ///
    /// Out-of-range and non-numeric values are rejected with `400` rather than clamped, so a client bug shows up.
    func integerQueryParameter(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        guard let text = uri.queryParameters.get(name) else {
            return defaultValue
        }
        guard let value = Int(text), range.contains(value) else {
            throw DemoServerError.badRequest(
                "Query parameter `\(name)` must be an integer from \(range.lowerBound) to \(range.upperBound)."
            )
        }
        return value
    }
}
