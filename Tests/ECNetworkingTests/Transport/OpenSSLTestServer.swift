import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `openssl s_server` on a free port of 127.0.0.1, with a throwaway self-signed certificate
/// for `localhost`, answering every request with a status page.
final class OpenSSLTestServer: Sendable {
    let port: Int
    let certificatePath: String
    /// The certificate's private key, PEM.
    var keyPath: String { directory.appendingPathComponent("key.pem").path }
    private let process: Process
    private let directory: URL

    private init(port: Int, certificatePath: String, process: Process, directory: URL) {
        self.port = port
        self.certificatePath = certificatePath
        self.process = process
        self.directory = directory
    }

    /// Makes the certificate and starts the server, with `serverArguments` added to `s_server`'s;
    /// the blocking work runs on a queue of its own, never on the test's cooperative threads.
    static func start(serverArguments: [String] = []) async throws -> OpenSSLTestServer {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try startBlocking(serverArguments: serverArguments) })
            }
        }
    }

    private static func startBlocking(serverArguments: [String]) throws -> OpenSSLTestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = directory.appendingPathComponent("key.pem").path
        let certificate = directory.appendingPathComponent("cert.pem").path
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        make.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
            "-out", certificate, "-days", "3650", "-subj", "/CN=localhost", "-addext",
            "subjectAltName=DNS:localhost",
        ]
        make.standardError = FileHandle.nullDevice
        try make.run()
        make.waitUntilExit()
        guard make.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }

        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        server.arguments =
            ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key, "-www"] + serverArguments
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        // "ACCEPT 127.0.0.1:PORT" once it listens, after a line or so about its parameters.
        var printed = ""
        func acceptLine() -> Substring? {
            // Complete lines only: the piece after the last newline may still be growing.
            printed.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first {
                $0.hasPrefix("ACCEPT")
            }
        }
        while acceptLine() == nil {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        guard let portText = acceptLine()?.split(separator: ":").last,
            let port = Int(portText.trimmingCharacters(in: .whitespaces))
        else {
            server.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        return OpenSSLTestServer(port: port, certificatePath: certificate, process: server, directory: directory)
    }

    /// Kills the server: `s_server` answers `SIGTERM` only between connections. `SIGKILL`
    /// cannot be caught, and Foundation reaps the process, so nothing waits for it here: a
    /// `waitUntilExit()` would block one of the concurrency runtime's threads (two on a 2-core
    /// machine) while it polls.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }
}
