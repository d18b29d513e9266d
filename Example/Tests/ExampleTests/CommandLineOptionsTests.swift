import Foundation
import Testing

@testable import Example

@Suite("Parsing the command line")
struct CommandLineOptionsTests {
    @Test("no arguments: the tour against the embedded server on a free port")
    func defaults() throws {
        let options = try CommandLineOptions(arguments: [])
        #expect(!options.serves)
        #expect(options.baseURL == nil)
        #expect(options.port == 0)
        #expect(!options.isVerbose)
        #expect(!options.showsHelp)
    }

    @Test("values after a space or after =")
    func values() throws {
        let spaced = try CommandLineOptions(arguments: ["--base-url", "http://127.0.0.1:8080", "--verbose"])
        let joined = try CommandLineOptions(arguments: ["--base-url=http://127.0.0.1:8080", "--verbose"])
        #expect(spaced == joined)
        #expect(spaced.baseURL == URL(string: "http://127.0.0.1:8080"))
        #expect(spaced.isVerbose)
        #expect(try CommandLineOptions(arguments: ["--serve", "--port", "8080"]).port == 8080)
    }

    @Test("--record-har and --replay-har name their files")
    func harFiles() throws {
        let recording = try CommandLineOptions(arguments: ["--record-har", "/tmp/tour.har", "--verbose"])
        #expect(recording.recordingFile == URL(fileURLWithPath: "/tmp/tour.har"))
        #expect(recording.replayFile == nil)
        let replay = try CommandLineOptions(arguments: ["--replay-har=/tmp/tour.har"])
        #expect(replay.replayFile == URL(fileURLWithPath: "/tmp/tour.har"))
        #expect(replay.recordingFile == nil)
    }

    @Test(
        "mistakes are reported, not guessed at",
        arguments: [
            ["--bogus"], ["--port"], ["--port", "http"], ["--port=70000"], ["--base-url", "ftp://host"],
            ["--base-url", "not a url"], ["--serve", "--base-url", "http://127.0.0.1:1"], ["--verbose=yes"],
            ["--base-url", "http://127.0.0.1:1", "--port", "1"], ["="], ["--record-har"],
            ["--replay-har", "t.har", "--base-url", "http://127.0.0.1:1"], ["--replay-har", "t.har", "--serve"],
            ["--replay-har", "t.har", "--record-har", "u.har"], ["--serve", "--record-har", "t.har"],
        ])
    func mistakes(arguments: [String]) {
        #expect(throws: UsageError.self) { try CommandLineOptions(arguments: arguments) }
    }
}
