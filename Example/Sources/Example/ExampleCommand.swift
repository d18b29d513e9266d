import DemoServer
import ECNetworking
import Foundation

/// What the executable does with its command line: the tour against the embedded server (the
/// default), the tour against another server (`--base-url`), either one recorded as a HAR file
/// (`--record-har`), the tour replayed from such a file with no server (`--replay-har`), or the
/// server alone (`--serve`).
enum ExampleCommand {
    /// Runs the command and returns the process's exit status: 0 on success, 1 when something
    /// failed, 2 for a command line it cannot act on.
    static func run(arguments: [String]) async -> Int32 {
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions(arguments: arguments)
        } catch {
            printError("error: \(error)\n\n\(CommandLineOptions.usage)")
            return 2
        }
        if options.showsHelp {
            print(CommandLineOptions.usage)
            return 0
        }
        do {
            let archiveRecorder = options.recordingFile.map { _ in Tour.makeArchiveRecorder() }
            if options.serves {
                try await serve(port: options.port)
            } else if let replayFile = options.replayFile {
                try await Tour(replaying: HTTPArchive(contentsOf: replayFile), isVerbose: options.isVerbose).run()
            } else if let baseURL = options.baseURL {
                try await Tour(
                    baseURL: baseURL, recorder: nil, isVerbose: options.isVerbose, archiveRecorder: archiveRecorder
                ).run()
            } else {
                try await tourEmbeddedServer(
                    port: options.port, isVerbose: options.isVerbose, archiveRecorder: archiveRecorder)
            }
            if let archiveRecorder, let recordingFile = options.recordingFile {
                try await archiveRecorder.write(to: recordingFile)
                let count = archiveRecorder.archive.log.entries.count
                print("Recorded \(count) requests in \(recordingFile.path) (0600, secrets redacted).")
                print("Replay them with no server:")
                print("  swift run --package-path Example Example --replay-har \(recordingFile.path)")
            }
            return 0
        } catch {
            printError("\nerror: \(describe(error))")
            return 1
        }
    }

    /// Starts a server, tours it, and stops it, also when a step fails.
    private static func tourEmbeddedServer(
        port: Int, isVerbose: Bool, archiveRecorder: HTTPArchiveRecorder?
    ) async throws {
        let server = try await DemoServer.start(port: port)
        do {
            try await Tour(
                baseURL: server.baseURL, recorder: server.recorder, isVerbose: isVerbose,
                archiveRecorder: archiveRecorder
            ).run()
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Runs a server until SIGINT or SIGTERM, or until it stops on its own.
    private static func serve(port: Int) async throws {
        let server = try await DemoServer.start(port: port)
        print("Demo API listening at \(server.baseURL.absoluteString)")
        print("Tour it from another terminal:")
        print("  swift run --package-path Example Example --base-url \(server.baseURL.absoluteString)")
        print("Press Ctrl-C to stop.")
        // A parent process reading a pipe should see the address now, not when the buffer fills.
        fflush(nil)
        let stoppedBy = try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask { await TerminationSignal.next() }
            group.addTask {
                try await server.waitUntilStopped()
                return nil
            }
            let first = try await group.next() ?? nil
            // Ends whichever wait is left: the signal wait by cancellation, the server wait by the stop.
            group.cancelAll()
            await server.stop()
            return first
        }
        if let stoppedBy {
            print("Received \(TerminationSignal.name(of: stoppedBy)); the server stopped cleanly.")
        } else {
            print("The server stopped.")
        }
    }

    /// The library's errors describe themselves in a sentence (an error status with the body
    /// the server sent); the rest in their own words.
    private static func describe(_ error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
