/// A failure of the benchmark itself (as opposed to a slow figure), which makes the run exit non-zero.
enum BenchmarkError: Error, CustomStringConvertible {
    /// A response decoded to a list of the wrong length.
    case unexpectedBody(count: Int)
    /// A transfer took another number of bytes than it asked for, or left another number on disk.
    case unexpectedByteCount(expected: Int, received: Int, stored: Int)
    /// A response had a status other than 200.
    case unexpectedStatus(Int?)
    /// The session answered with neither a response nor an error.
    case missingResponse
    /// A response was labelled with another media type than JSON (or none).
    case unexpectedContentType(String?)
    /// The loopback server did not report the port it bound.
    case serverDidNotStart
    /// A scenario's process ended without handing back its outcome.
    case scenarioProcessFailed(status: Int32)
    /// A tool the benchmark drives (valgrind, strip) failed; the end of what it printed.
    case toolFailed(String, String)
    /// A TLS round's clients spoke another HTTP version than the round is for.
    case unexpectedProtocol(String)
    /// A transfer the scenario breaks on purpose did not break or resume as it should; what happened.
    case brokenTransfer(String)

    /// The failure, for the `VIOLATION` line.
    var description: String {
        switch self {
        case .unexpectedBody(let count): "decoded \(count) users instead of \(UsersFixture.users.count)"
        case .unexpectedByteCount(let expected, let received, let stored):
            "a transfer of \(expected) bytes received \(received) and stored \(stored)"
        case .unexpectedStatus(let status): "unexpected HTTP status \(status.map(String.init) ?? "none")"
        case .missingResponse: "the session answered without a response"
        case .unexpectedContentType(let type): "unexpected Content-Type \(type ?? "none")"
        case .serverDidNotStart: "the loopback server did not start"
        case .scenarioProcessFailed(let status): "the scenario's process exited with status \(status) and no outcome"
        case .toolFailed(let tool, let output): "\(tool) failed: \(output)"
        case .unexpectedProtocol(let version): "the clients negotiated \(version) instead of the round's protocol"
        case .brokenTransfer(let what): what
        }
    }
}
