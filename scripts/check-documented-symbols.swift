// Fails when a public or open symbol of the given symbol graphs has no doc comment of its own.
//
// DocC renders an undocumented symbol without complaint, so scripts/build-docs.sh runs this over
// the symbol graphs it extracted (with -skip-inherited-docs, so a symbol does not pass on the
// strength of the protocol requirement it implements). Symbols the compiler wrote, which have no
// place in the sources (an enum's init(rawValue:)), are not the author's to document and are skipped.
//
// Usage: swift scripts/check-documented-symbols.swift DIRECTORY...

import Foundation

struct SymbolGraph: Decodable {
    struct Symbol: Decodable {
        struct Kind: Decodable { let displayName: String }
        struct Location: Decodable {
            struct Position: Decodable { let line: Int }
            let uri: String
            let position: Position
        }
        struct DocComment: Decodable {
            struct Line: Decodable { let text: String }
            let lines: [Line]
        }
        let kind: Kind
        let pathComponents: [String]
        let accessLevel: String
        let location: Location?
        let docComment: DocComment?
    }
    struct Module: Decodable { let name: String }
    let module: Module
    let symbols: [Symbol]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

var offenders: [String] = []
var checked = 0
for directory in CommandLine.arguments.dropFirst() {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
        fail("no symbol graph directory at \(directory)")
    }
    for file in names.sorted() where file.hasSuffix(".symbols.json") {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(file)
        guard let data = try? Data(contentsOf: url), let graph = try? JSONDecoder().decode(SymbolGraph.self, from: data)
        else { fail("\(url.path) is not a symbol graph") }
        for symbol in graph.symbols where ["public", "open"].contains(symbol.accessLevel) {
            guard let location = symbol.location else { continue }
            checked += 1
            let text = symbol.docComment?.lines.map(\.text).joined() ?? ""
            guard text.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let path = URL(string: location.uri)?.path ?? location.uri
            let relative = path.components(separatedBy: "/Sources/").last.map { "Sources/" + $0 } ?? path
            offenders.append(
                "\(relative):\(location.position.line + 1): \(symbol.kind.displayName.lowercased()) "
                    + "\(graph.module.name).\(symbol.pathComponents.joined(separator: ".")) has no doc comment")
        }
    }
}

guard checked > 0 else { fail("no public symbol found in \(CommandLine.arguments.dropFirst())") }
if offenders.isEmpty {
    print("Every one of the \(checked) public symbols has a doc comment.")
} else {
    for offender in Set(offenders).sorted() { print("error: \(offender)") }
    print("\(Set(offenders).count) public symbols have no doc comment.")
    exit(1)
}
