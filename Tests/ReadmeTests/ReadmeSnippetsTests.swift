import Foundation
import Testing

/// Every ```swift block of the README and of docs/MIGRATION.md must appear, line for line, in a file that is compiled:
/// a test here or a source of the Example package. A snippet that drifts from the code fails here.
@Suite("README snippets are compiled code")
struct ReadmeSnippetsTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each document, with the number of swift blocks it has at least (so one that lost its code,
    /// or was not found, fails).
    @Test(
        "each swift block of the README and the migration guide is found verbatim in compiled sources",
        arguments: [("README.md", 10), ("docs/MIGRATION.md", 8)])
    func snippetsAreCompiled(document: String, minimumBlocks: Int) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: text)
        #expect(blocks.count >= minimumBlocks, "\(document) should teach with code")
        let sources = try Self.compiledSources().map(Self.normalizedLines)
        for block in blocks {
            let lines = Self.normalizedLines(block)
            let found = sources.contains { Self.contains($0, lines) }
            #expect(found, "\(document) snippet not found in any compiled file:\n\(block)")
        }
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

    private static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }
}
