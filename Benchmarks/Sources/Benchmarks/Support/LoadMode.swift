/// One way of sending in a loopback measurement: one request at a time, or 64 in flight.
struct LoadMode {
    /// The key in RESULT names: `seq` or `c64`.
    var key: String
    /// How the report names it.
    var label: String
    /// Requests per round.
    var count: Int
    /// Requests in flight at once.
    var concurrency: Int

    /// Sequential, then 64 in flight, with `sequential` and `concurrent` requests per round in a
    /// full run and small counts in quick mode.
    static func standard(quick: Bool, sequential: Int, concurrent: Int) -> [LoadMode] {
        [
            LoadMode(key: "seq", label: "sequential", count: quick ? 200 : sequential, concurrency: 1),
            LoadMode(key: "c64", label: "64 in flight", count: quick ? 1_000 : concurrent, concurrency: 64),
        ]
    }
}
