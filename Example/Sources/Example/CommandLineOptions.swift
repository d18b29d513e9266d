import Foundation

/// What the command line asks for, parsed by hand: a few flags do not need a parser dependency.
struct CommandLineOptions: Equatable {
    /// The text `--help` prints.
    static let usage = """
        Usage: swift run --package-path Example Example [options]

        Starts the demo API server on 127.0.0.1 and tours ECNetworking against it.

        Options:
          --serve           Only run the server, print its URL, and keep it up until Ctrl-C (SIGINT) or SIGTERM.
          --port N          Listen on port N instead of a free one (with the embedded server only).
          --base-url URL    Tour a server that is already running at URL instead of starting one.
          --verbose         Also print the library's log: every request and response, headers, a cURL line.
          --record-har FILE Record every request of the tour as a HAR 1.2 file (0600, secrets redacted).
          --replay-har FILE Replay the tour from a HAR file --record-har wrote, with no server at all.
          --help            Print this text.
        """

    /// Only serve, without a tour.
    var serves = false
    /// The server to tour instead of starting one.
    var baseURL: URL?
    /// The port for the embedded server; 0 lets the system pick a free one.
    var port = 0
    /// Whether the library's log is printed.
    var isVerbose = false
    /// Whether only the usage text is wanted.
    var showsHelp = false
    /// Where to write the tour's traffic as a HAR file.
    var recordingFile: URL?
    /// The HAR file to replay the tour from, with no server.
    var replayFile: URL?

    /// Parses `arguments`, the command line without the program name.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or malformed value, or options
    ///   that contradict each other.
    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            // `--name=value` and `--name value` are both accepted, as most tools do.
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let name = parts[0]
            var inlineValue = parts.count == 2 ? parts[1] : nil
            func value() throws(UsageError) -> String {
                if let value = inlineValue ?? remaining.popFirst() {
                    inlineValue = nil
                    return value
                }
                throw UsageError("\(name) needs a value")
            }
            switch name {
            case "--serve": serves = true
            case "--verbose": isVerbose = true
            case "--help", "-h": showsHelp = true
            case "--port": port = try Self.port(from: value())
            case "--base-url": baseURL = try Self.baseURL(from: value())
            case "--record-har": recordingFile = URL(fileURLWithPath: try value())
            case "--replay-har": replayFile = URL(fileURLWithPath: try value())
            default: throw UsageError("unknown option \(argument)")
            }
            if let inlineValue { throw UsageError("\(name) takes no value, got \(inlineValue)") }
        }
        if serves, baseURL != nil {
            throw UsageError("--serve starts a server, --base-url uses another one: pick one")
        }
        if replayFile != nil, serves || baseURL != nil || port != 0 || recordingFile != nil {
            throw UsageError(
                "--replay-har runs the tour with no server: it takes no --serve, --base-url, --port or --record-har")
        }
        if serves, recordingFile != nil {
            throw UsageError("--record-har records the tour, which --serve does not run")
        }
        if baseURL != nil, port != 0 {
            throw UsageError("--port applies to the embedded server, which --base-url does not start")
        }
    }

    private static func port(from text: String) throws(UsageError) -> Int {
        guard let port = Int(text), (0...65_535).contains(port) else {
            throw UsageError("--port needs a number from 0 to 65535, got \(text)")
        }
        return port
    }

    private static func baseURL(from text: String) throws(UsageError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw UsageError("--base-url needs an absolute http(s) URL such as http://127.0.0.1:8080, got \(text)")
        }
        return url
    }
}
