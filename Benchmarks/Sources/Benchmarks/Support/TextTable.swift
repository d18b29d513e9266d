/// A table printed with aligned columns: text left-aligned, figures right-aligned.
struct TextTable: Sendable, Codable {
    /// The column titles.
    var header: [String]
    /// The rows, each with one cell per column.
    var rows: [[String]] = []

    /// Adds a row.
    mutating func add(_ cells: String...) {
        rows.append(cells)
    }

    /// The table as lines of text, with a rule under the header.
    func render() -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                let cell = cells[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                // The first column names the row; the others hold figures, which read best aligned right.
                return column == 0 ? cell + padding : padding + cell
            }
            .joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
