import Foundation
import TestSupport
import Testing

/// Every ```swift block of the README and of every article of the two DocC catalogs must appear,
/// line for line, in a file that is compiled: a test here or a source of the Example package. A
/// snippet that drifts from the code fails here. Links from one document to a file of the
/// repository (which docc does not check) must lead to a file that exists.
@Suite("README and article snippets are compiled code")
struct ReadmeSnippetsTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static let catalogs = [
        "Sources/ECNetworking/ECNetworking.docc",
        "Sources/ECNetworkingTesting/ECNetworkingTesting.docc",
    ]

    /// Each document with the number of swift blocks it has at least, so one that lost its code,
    /// or was moved, fails.
    private static let documents: [(path: String, minimumBlocks: Int)] = [
        ("README.md", 6),
        ("Sources/ECNetworking/ECNetworking.docc/ECNetworking.md", 1),
        ("Sources/ECNetworking/ECNetworking.docc/GettingStarted.md", 6),
        ("Sources/ECNetworking/ECNetworking.docc/ModellingRequests.md", 9),
        ("Sources/ECNetworking/ECNetworking.docc/Actions.md", 5),
        ("Sources/ECNetworking/ECNetworking.docc/ConfigurationAndLogging.md", 1),
        ("Sources/ECNetworking/ECNetworking.docc/ErrorsAndCancellation.md", 4),
        ("Sources/ECNetworking/ECNetworking.docc/Authentication.md", 5),
        ("Sources/ECNetworking/ECNetworking.docc/Resilience.md", 6),
        ("Sources/ECNetworking/ECNetworking.docc/ResponseStorage.md", 5),
        ("Sources/ECNetworking/ECNetworking.docc/UploadsDownloadsAndStreams.md", 8),
        ("Sources/ECNetworking/ECNetworking.docc/Transports.md", 6),
        ("Sources/ECNetworking/ECNetworking.docc/Integrations.md", 5),
        ("Sources/ECNetworking/ECNetworking.docc/LinuxNotes.md", 0),
        ("Sources/ECNetworking/ECNetworking.docc/Architecture.md", 0),
        ("Sources/ECNetworking/ECNetworking.docc/Concurrency.md", 0),
        ("Sources/ECNetworking/ECNetworking.docc/Performance.md", 0),
        ("Sources/ECNetworking/ECNetworking.docc/Migrating.md", 34),
        ("Sources/ECNetworkingTesting/ECNetworkingTesting.docc/ECNetworkingTesting.md", 1),
        ("Sources/ECNetworkingTesting/ECNetworkingTesting.docc/Testing.md", 3),
    ]

    @Test("each swift block of the README and of every article is found verbatim in compiled sources")
    func snippetsAreCompiled() async throws {
        // The compiled sources are read and indexed once for every document: read again for each
        // (as a test per document did), they cost 13 s of CPU without a suspension, which held the
        // cooperative pool's threads (two on a two-core machine) from every other test.
        let sources = try await onThreadOfItsOwn { try SourceIndex(Self.compiledSources().map(Self.normalizedLines)) }
        for (document, minimumBlocks) in Self.documents {
            let blocks = Self.swiftBlocks(in: try Self.text(of: document))
            #expect(blocks.count >= minimumBlocks, "\(document) should teach with code")
            for block in blocks {
                let found = sources.contains(Self.normalizedLines(block))
                #expect(found, "\(document) snippet not found in any compiled file:\n\(block)")
            }
            await Task.yield()
        }
    }

    @Test("every article of the two catalogs is checked above")
    func everyArticleIsChecked() throws {
        let checked = Set(Self.documents.map(\.path))
        for catalog in Self.catalogs {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: Self.root.appendingPathComponent(catalog).path)
            let articles = names.filter { $0.hasSuffix(".md") }
            #expect(articles.count >= 2, "\(catalog) should hold a landing page and articles")
            for article in articles {
                #expect(checked.contains("\(catalog)/\(article)"), "\(catalog)/\(article) is not in the list")
            }
        }
    }

    @Test(
        "each link to a file of the repository leads to one",
        arguments: documents.map(\.path) + ["CONTRIBUTING.md", "CHANGELOG.md", "ARCHITECTURE.md", "docs/MIGRATION.md"])
    func relativeLinksResolve(document: String) throws {
        let folder = Self.root.appendingPathComponent(document).deletingLastPathComponent()
        let links = Self.relativeLinks(in: try Self.text(of: document))
        for link in links {
            let target = folder.appendingPathComponent(link).standardizedFileURL
            #expect(FileManager.default.fileExists(atPath: target.path), "\(document) links to missing \(link)")
        }
    }

    private static func text(of document: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    }

    /// The bodies of ```swift blocks, except those right after `<!-- not compiled: … -->`.
    private static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        var skipNext = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil {
                if line.hasPrefix("<!-- not compiled") { skipNext = true }
                if line.hasPrefix("```swift") {
                    current = []
                }
            } else if line.hasPrefix("```") {
                if !skipNext { blocks.append(current!.joined(separator: "\n")) }
                skipNext = false
                current = nil
            } else {
                current!.append(line)
            }
        }
        return blocks
    }

    /// The targets of `[text](target)` links that name a file of the repository: not a web
    /// address, not a `doc:` link (docc checks those), not an anchor of the same page. An anchor
    /// after the file name is dropped.
    private static func relativeLinks(in markdown: String) -> [String] {
        var links: [String] = []
        var rest = prose(of: markdown)[...]
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<close])
            rest = rest[close...]
            let isExternal = target.contains("://") || target.hasPrefix("mailto:")
            guard !isExternal, !target.hasPrefix("<doc:"), !target.hasPrefix("doc:"), !target.hasPrefix("#")
            else { continue }
            links.append(String(target.split(separator: "#", maxSplits: 1)[0]))
        }
        return links
    }

    /// The markdown without its code blocks and code spans, where `](` is code, not a link.
    private static func prose(of markdown: String) -> String {
        var isInBlock = false
        var lines: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                isInBlock.toggle()
            } else if !isInBlock {
                let pieces = line.split(separator: "`", omittingEmptySubsequences: false)
                lines.append(pieces.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element).joined())
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func compiledSources() throws -> [String] {
        let folders = ["Tests", "Example/Sources", "Example/Tests"]
        var texts: [String] = []
        for folder in folders {
            let url = root.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in enumerator where file.pathExtension == "swift" {
                texts.append(try String(contentsOf: file, encoding: .utf8))
            }
        }
        return texts
    }

    private static func normalizedLines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

}

/// The normalized lines of every compiled source, with where each line starts a run, so that a
/// snippet is looked for only where its first line is.
private struct SourceIndex: Sendable {
    private let files: [[String]]
    private let starts: [String: [(file: Int, line: Int)]]

    init(_ files: [[String]]) {
        self.files = files
        var starts: [String: [(file: Int, line: Int)]] = [:]
        for (file, lines) in files.enumerated() {
            for (line, text) in lines.enumerated() {
                starts[text, default: []].append((file, line))
            }
        }
        self.starts = starts
    }

    /// Whether `lines` appear, one after another, in one of the files.
    func contains(_ lines: [String]) -> Bool {
        guard let first = lines.first else { return true }
        return starts[first, default: []].contains { start in
            let file = files[start.file]
            return start.line + lines.count <= file.count
                && file[start.line..<(start.line + lines.count)].elementsEqual(lines)
        }
    }
}
