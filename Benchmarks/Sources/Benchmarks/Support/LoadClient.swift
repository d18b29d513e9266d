/// One client under test in a scenario that compares clients round by round: a label for the
/// table, the key its `RESULT` lines are named by, and one request.
struct LoadClient {
    var label: String
    var key: String
    var call: @Sendable () async throws -> Void
}
