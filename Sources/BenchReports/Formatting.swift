import Foundation

/// A duration for people: µs below a millisecond, ms below a second, else s.
public func formatSeconds(_ x: Double) -> String {
    x < 1e-3 ? String(format: "%.1f µs", x * 1e6) : x < 1 ? String(format: "%.2f ms", x * 1e3) : String(format: "%.2f s", x)
}

/// Rows of cells as aligned text, two spaces between columns: the columns in
/// `left` padded on the right, the others on the left; no trailing blanks.
/// The console's solver table and frame budget share it.
public func alignedTable(_ table: [[String]], left: Set<Int>) -> String {
    let widths = (table.first ?? []).indices.map { c in table.map { $0.indices.contains(c) ? $0[c].count : 0 }.max() ?? 0 }
    return table.map { row in
        var line = row.enumerated().map { c, s in
            let pad = String(repeating: " ", count: max(0, widths[c] - s.count))
            return left.contains(c) ? s + pad : pad + s
        }.joined(separator: "  ")
        while line.last == " " { line.removeLast() }
        return line
    }.joined(separator: "\n") + "\n"
}

/// Escapes text for HTML text and attribute values: `& < > " '`.
/// Why our own: Plot leaves attribute values and entity-like text as they are.
public func escapeHTML(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for c in s.unicodeScalars {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.unicodeScalars.append(c)
        }
    }
    return out
}
