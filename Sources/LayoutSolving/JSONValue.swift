import LayoutModel

/// A JSON value whose objects keep their key order, so output is
/// byte-for-byte deterministic (no dictionary order leaks into results).
public enum JSONValue: Hashable, Sendable {
    // Why not `indirect`: arrays and objects already hold their elements by
    // reference; `indirect` boxed every number and string too, five heap
    // allocations per frame of a solution.
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }
    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    /// Compact or indented text. Non-finite numbers become `null`.
    ///
    /// - Complexity: O(size of the output).
    public func serialized(indent: Int? = nil) -> String {
        var out: [UInt8] = []
        write(to: &out, indent: indent, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Why bytes, not `String +=`: appending to a byte array is a copy;
    /// growing a String re-checks its encoding and breadcrumbs on each append.
    private func write(to out: inout [UInt8], indent: Int?, level: Int) {
        func newline(_ l: Int) {
            guard let indent else { return }
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: indent * l))
        }
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let x): out.append(contentsOf: (x.isFinite ? formatNumber(x) : "null").utf8)
        case .string(let s): JSONValue.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
            // Arrays of numbers stay on one line (frames read as [x, y, w, h]).
            let flat = items.allSatisfy { if case .number = $0 { return true } else { return false } }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 {
                    out.append(UInt8(ascii: ","))
                    if flat && indent != nil { out.append(0x20) }
                }
                if !flat { newline(level + 1) }
                item.write(to: &out, indent: indent, level: level + 1)
            }
            if !flat { newline(level) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1)
                JSONValue.escape(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(0x20) }
                value.write(to: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out.append(UInt8(ascii: "}"))
        }
    }

    static func escape(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default:
                // UTF-8 bytes of other scalars pass through unchanged.
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
