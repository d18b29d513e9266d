/// Order statistics over samples. Medians and percentiles rather than means, because a loaded
/// 2-core machine produces outliers that would move a mean but not a median.
enum Statistics {
    /// The median; 0 for no samples.
    static func median(_ values: [Double]) -> Double {
        percentile(values, 50)
    }

    /// The nearest-rank percentile (`p` from 0 to 100); 0 for no samples.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

extension Duration {
    /// The duration in nanoseconds, with fractions.
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    /// The duration in milliseconds, with fractions.
    var milliseconds: Double { nanoseconds / 1e6 }

    /// The duration in microseconds, with fractions.
    var microseconds: Double { nanoseconds / 1e3 }
}
