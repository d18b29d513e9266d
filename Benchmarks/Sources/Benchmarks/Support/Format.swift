import Foundation

/// Number formatting shared by the tables and the `RESULT` lines, so both show the same figure.
enum Format {
    /// `value` with `decimals` digits after the point, without grouping (scripts read it).
    static func number(_ value: Double, decimals: Int = 1) -> String {
        String(format: "%.\(decimals)f", value)
    }

    /// A whole number, rounded.
    static func integer(_ value: Double) -> String {
        String(Int(value.rounded()))
    }

    /// A signed difference, with its sign always shown.
    static func signed(_ value: Double, decimals: Int = 1) -> String {
        (value >= 0 ? "+" : "") + number(value, decimals: decimals)
    }
}
