import Foundation

/// A duration for people: µs below a millisecond, ms below a second, else s.
public func formatSeconds(_ x: Double) -> String {
    x < 1e-3 ? String(format: "%.1f µs", x * 1e6) : x < 1 ? String(format: "%.2f ms", x * 1e3) : String(format: "%.2f s", x)
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
