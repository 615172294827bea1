import LayoutModel

/// A JSON value whose objects keep their key order, so output is
/// byte-for-byte deterministic (no dictionary order leaks into results).
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }
    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    /// Compact or indented text. Non-finite numbers become `null`.
    public func serialized(indent: Int? = nil) -> String {
        var out = ""
        write(to: &out, indent: indent, level: 0)
        return out
    }

    private func write(to out: inout String, indent: Int?, level: Int) {
        func newline(_ l: Int) {
            guard let indent else { return }
            out += "\n" + String(repeating: " ", count: indent * l)
        }
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let x): out += x.isFinite ? formatNumber(x) : "null"
        case .string(let s): JSONValue.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            // Arrays of numbers stay on one line (frames read as [x, y, w, h]).
            let flat = items.allSatisfy { if case .number = $0 { return true } else { return false } }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += flat && indent != nil ? ", " : "," }
                if !flat { newline(level + 1) }
                item.write(to: &out, indent: indent, level: level + 1)
            }
            if !flat { newline(level) }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                newline(level + 1)
                JSONValue.escape(key, into: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out += "}"
        }
    }

    static func escape(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
