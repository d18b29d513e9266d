import Foundation
import TestSupport
import Testing

@testable import ECNetworking

/// A download's file picked at the head, named as the server suggests (made safe), and the options
/// that decide whether folders are made and files replaced; over a real socket.
@Suite("Download destinations and options", .timeLimit(.minutes(2)))
final class DownloadDestinationTests: Sendable {
    private let directory: URL
    private static let body = Data("the report".utf8)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("destination-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The test's folder goes with it, whatever the test left there.
    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private func contents(of folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? []
    }

    /// A server that answers every request with ``body`` and `headers`.
    private static func server(_ headers: [String: String] = [:]) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { _ in .response(status: 200, headers: headers, body: body) }
    }

    private func request(_ path: String, on server: LoopbackHTTPServer) -> NetworkRequest {
        NetworkRequest(url: server.baseURL.appendingPathComponent(path))
    }

    @Test(
        "the suggested name is the server's Content-Disposition name, made a plain name in the folder",
        arguments: [
            ("attachment; filename=\"../../escape.txt\"", "escape.txt"),
            ("attachment; filename=\"..\\\\..\\\\windows.txt\"", "windows.txt"),
            ("attachment; filename=\".hidden\"", "hidden"),
            ("attachment; filename=\"plain.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", "résumé.pdf"),
            ("attachment; filename*=UTF-8''%2E%2E%2Fup.bin", "up.bin"),
            ("attachment; filename=\"..\"", "report.bin"),
            ("inline", "report.bin"),
        ])
    func suggestedName(_ disposition: String, _ expected: String) async throws {
        let server = try Self.server(["Content-Disposition": disposition])
        defer { server.stop() }
        let folder = directory.appendingPathComponent("inside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            let file = try await network.download(
                request("files/report.bin", on: server), to: .suggestedName(in: folder))
            #expect(file.fileURL == folder.appendingPathComponent(expected))
        }
        #expect(contents(of: folder) == [expected])
        #expect(contents(of: directory) == ["inside"])
        #expect(try Data(contentsOf: folder.appendingPathComponent(expected)) == Self.body)
    }

    @Test("a chosen destination sees the head and the suggested name; an error it throws writes nothing")
    func chosen() async throws {
        let server = try Self.server(["Content-Disposition": "attachment; filename=\"q3.csv\"", "X-Report": "sales"])
        defer { server.stop() }
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            let file = try await network.download(
                request("export", on: server),
                to: .chosen { [directory] response, name in
                    directory.appendingPathComponent("\(response.headers["X-Report"] ?? "none")-\(name)")
                })
            #expect(file.fileURL.lastPathComponent == "sales-q3.csv")

            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                _ = try await network.download(request("export", on: server), to: .chosen { _, _ in throw Refused() })
            }
            #expect(network.activeRequestCount == 0)
        }
        #expect(contents(of: directory) == ["sales-q3.csv"])
    }

    @Test("replacesExistingFile = false fails with fileExists before sending, or at the head, and keeps the file")
    func keepsExistingFile() async throws {
        let server = try Self.server(["Content-Disposition": "attachment; filename=\"taken.txt\""])
        defer { server.stop() }
        let taken = directory.appendingPathComponent("taken.txt")
        try Data("mine".utf8).write(to: taken)
        let options = DownloadOptions(replacesExistingFile: false)
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            do {
                _ = try await network.download(request("a", on: server), to: taken, options: options)
                Issue.record("an existing file was replaced")
            } catch DownloadError.fileExists(let url) {
                #expect(url == taken)
            }
            #expect(server.requests.isEmpty, "a known destination that exists must fail before the send")

            do {
                _ = try await network.download(
                    request("a", on: server), to: .suggestedName(in: directory), options: options)
                Issue.record("an existing file was replaced")
            } catch DownloadError.fileExists(let url) {
                #expect(url == taken)
            }
            // The default replaces it.
            _ = try await network.download(request("a", on: server), to: taken)
        }
        #expect(try Data(contentsOf: taken) == Self.body)
        #expect(contents(of: directory) == ["taken.txt"])
    }

    @Test("a file that appears during the transfer is not replaced either")
    func fileAppearingDuringTransfer() async throws {
        let gate = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in
            .raw(Data("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nthe ".utf8), gate: gate, rest: Data("report".utf8))
        }
        defer { server.stop() }
        let destination = directory.appendingPathComponent("late.txt")
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            async let download = network.download(
                request("a", on: server), to: destination, options: DownloadOptions(replacesExistingFile: false))
            try await waitUntil { server.requests.count == 1 }
            try Data("came first".utf8).write(to: destination)
            gate.signal()
            do {
                _ = try await download
                Issue.record("the file that appeared was replaced")
            } catch DownloadError.fileExists {}
        }
        #expect(try Data(contentsOf: destination) == Data("came first".utf8))
        #expect(contents(of: directory) == ["late.txt"])
    }

    @Test("createsIntermediateDirectories makes missing folders, for a known file and a suggested name")
    func intermediateDirectories() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let options = DownloadOptions(createsIntermediateDirectories: true)
        try await TransportKind.urlSession.withNetwork(baseURL: server.baseURL) { network in
            let nested = directory.appendingPathComponent("a/b/c/file.txt")
            _ = try await network.download(request("x", on: server), to: nested, options: options)
            #expect(try Data(contentsOf: nested) == Self.body)

            let folder = directory.appendingPathComponent("d/e")
            let file = try await network.download(
                request("y.txt", on: server), to: .suggestedName(in: folder), options: options)
            #expect(file.fileURL == folder.appendingPathComponent("y.txt"))

            // Without the option, a missing folder is a typed error.
            await #expect(throws: DownloadError.self) {
                _ = try await network.download(
                    request("x", on: server), to: directory.appendingPathComponent("f/g.txt"))
            }
        }
    }
}

/// The names a response suggests, made safe.
@Suite("Suggested file names")
struct SuggestedFileNameTests {
    @Test(
        "a name from the server is a plain name, or nothing",
        arguments: [
            ("report.pdf", "report.pdf"), ("../../etc/passwd", "passwd"), ("C:\\Users\\x\\evil.exe", "evil.exe"),
            ("..", nil), (".", nil), ("/", nil), ("a/", nil), ("...hidden", "hidden"), ("  spaced  ", "spaced"),
            ("tab\tand\u{0}nul\u{7F}.txt", "tabandnul.txt"), ("line\u{2028}break", "linebreak"), ("", nil),
            (". .htaccess", "htaccess"), (" . . .env ", "env"), (". ", nil),
        ] as [(String, String?)])
    func sanitized(_ name: String, _ expected: String?) {
        #expect(SuggestedFileName.sanitized(name) == expected)
    }

    /// Right-to-left override (U+202E) shows `photo\u{202E}gpj.exe`, an executable, as
    /// `photoexe.jpg`: every bidirectional control, and every other invisible format character
    /// (which hides a difference between names that look alike), is dropped.
    @Test(
        "bidirectional controls and invisible format characters are dropped, so a name shows as it is",
        arguments: [
            ("photo\u{202E}gpj.exe", "photogpj.exe"), ("\u{202B}invoice\u{202C}.pdf", "invoice.pdf"),
            ("a\u{202A}\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{061C}b.txt", "ab.txt"),
            ("zero\u{200B}width\u{2060}joiner\u{FEFF}soft\u{00AD}tag\u{E0041}.txt", "zerowidthjoinersofttag.txt"),
            // Dropped before the dots are trimmed: neither hides a leading dot nor leaves a name.
            ("\u{200F}.htaccess", "htaccess"), ("\u{2067} \u{2069}", nil), ("\u{202E}", nil),
            // The joiners reorder nothing, and these names need them.
            ("\u{1F469}\u{200D}\u{1F4BB}.png", "\u{1F469}\u{200D}\u{1F4BB}.png"),
            (
                "\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}.txt",
                "\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}.txt"
            ),
        ] as [(String, String?)])
    func formatCharacters(_ name: String, _ expected: String?) {
        let safe = SuggestedFileName.sanitized(name)
        #expect(safe == expected)
        // Made safe again, it stays the same.
        #expect(safe.flatMap(SuggestedFileName.sanitized) == safe)
    }

    @Test("a server's Content-Disposition cannot disguise an executable with a right-to-left override")
    func disguisedExtension() {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Disposition", value: "attachment; filename*=UTF-8''photo%E2%80%AEgpj.exe")
        let response = NetworkResponse(
            statusCode: 200, headers: headers, url: URL(string: "https://example.com/files/report.bin")!)
        #expect(SuggestedFileName.of(response) == "photogpj.exe")
    }

    @Test("a name longer than 255 bytes is cut on a character boundary, keeping its extension")
    func longNames() throws {
        let long = String(repeating: "é", count: 200) + ".pdf"
        let fitted = try #require(SuggestedFileName.sanitized(long))
        #expect(fitted.utf8.count <= 255)
        #expect(fitted.hasSuffix(".pdf"))
        #expect(fitted.hasPrefix("éé"))
        let noExtension = try #require(SuggestedFileName.sanitized(String(repeating: "x", count: 400)))
        #expect(noExtension.utf8.count == 255)
        // One character of 600 bytes: cut by scalars, never to nothing or to a hidden `.pdf`.
        let combining = "a" + String(repeating: "\u{301}", count: 300) + ".pdf"
        let cut = try #require(SuggestedFileName.sanitized(combining))
        #expect(cut.utf8.count <= 255 && cut.unicodeScalars.first == "a" && cut.hasSuffix(".pdf"))
        // Cut at 255 bytes just after a space: the name does not end on it, and made safe again it
        // stays the same (found by the content-disposition fuzz target).
        let spaced = String(repeating: "a", count: 254) + " " + String(repeating: "b", count: 60)
        let trimmed = try #require(SuggestedFileName.sanitized(spaced))
        #expect(trimmed == String(repeating: "a", count: 254))
        #expect(SuggestedFileName.sanitized(trimmed) == trimmed)
    }

    @Test(
        "Content-Disposition: filename* wins when it decodes, a quoted filename is unescaped",
        arguments: [
            ("attachment; filename=\"a \\\"b\\\".txt\"", "a \"b\".txt"),
            ("attachment; filename=plain.txt", "plain.txt"),
            ("attachment; filename*=UTF-8''%E2%82%AC%20rates.pdf; filename=\"EUR rates.pdf\"", "€ rates.pdf"),
            ("attachment; filename*=iso-8859-1'en'%A3%20rates.pdf", "£ rates.pdf"),
            ("attachment; filename*=UTF-8''%ZZbad.pdf; filename=\"fallback.pdf\"", "fallback.pdf"),
            ("attachment; filename*=KOI8-R''x.pdf; filename=\"fallback.pdf\"", "fallback.pdf"),
            ("attachment; FILENAME=\"upper.txt\"", "upper.txt"),
            ("attachment", nil), ("filename=\"no-type.txt\"", nil), ("attachment; filename", nil),
        ] as [(String, String?)])
    func contentDisposition(_ field: String, _ expected: String?) {
        #expect(SuggestedFileName.fromContentDisposition(field) == expected)
    }

    @Test("without Content-Disposition the name is the URL's last path component, else download")
    func fallbacks() {
        let named = NetworkResponse(statusCode: 200, url: URL(string: "https://example.com/files/q3.csv?token=x")!)
        #expect(SuggestedFileName.of(named) == "q3.csv")
        let root = NetworkResponse(statusCode: 200, url: URL(string: "https://example.com/")!)
        #expect(SuggestedFileName.of(root) == "download")
    }
}
