import Foundation
import Testing

/// The words a POSIX shell makes of `command` after its leading `curl`, so that a test can check
/// that a logged cURL command quotes everything: a shell that does anything but print the words
/// (runs a pipe, a substitution, a background job) fails the test.
///
/// The shell runs, and is waited for, on a thread of its own: waiting on one of the concurrency
/// runtime's threads (two on a 2-core machine) would stall every other test of the process.
func shellWords(ofCURLCommand command: String) async throws -> [String] {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try blockingShellWords(ofCURLCommand: command) })
        }
    }
}

private func blockingShellWords(ofCURLCommand command: String) throws -> [String] {
    let trimmed = command.trimmingCharacters(in: .whitespaces)
    try #require(trimmed.hasPrefix("curl "))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "printf '%s\\n' " + trimmed.dropFirst("curl ".count)]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "the shell failed on: \(trimmed)")
    return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        .dropLast().map(String.init)
}
