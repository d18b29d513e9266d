/// Prints a figure a test measured, so a run's log shows the numbers behind the assertions.
func report(_ figure: String) {
    print("[measured] \(figure)")
}

/// `duration` in whole milliseconds, such as `1002 ms`, for ``report(_:)``.
func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return "\(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) ms"
}
