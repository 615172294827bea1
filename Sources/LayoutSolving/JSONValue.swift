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
    func write(to out: inout [UInt8], indent: Int?, level: Int) {
        func newline(_ l: Int) {
            guard let indent else { return }
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: indent * l))
        }
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let x): JSONValue.appendNumber(x, to: &out)
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

    /// `formatNumber(x)`'s text, or `null` for a non-finite number. Why its
    /// own function: an integral value (most coordinates of a layout) is
    /// written digit by digit, without the String that formatNumber makes.
    static func appendNumber(_ x: Double, to out: inout [UInt8]) {
        guard x.isFinite else { out.append(contentsOf: "null".utf8); return }
        guard x == x.rounded(), abs(x) < 1e15 else {
            // Why `write(to:)` into a byte sink rather than `formatNumber`:
            // a `Double` writes its shortest digits (`description`'s text)
            // to a stream as ASCII bytes, and a sink that takes them as
            // bytes skips the String that `description` wraps them in, a
            // heap allocation for the 17 digits of a third
            // (docs/measurements.md#m-2026-11-27-number-text).
            var sink = ByteSink()
            swap(&sink.bytes, &out)
            x.write(to: &sink)
            swap(&sink.bytes, &out)
            return
        }
        var n = Int64(x)  // exact: integral and below 2^53 in magnitude
        if n == 0 { out.append(UInt8(ascii: "0")); return }  // -0 too, as formatNumber
        if n < 0 { out.append(UInt8(ascii: "-")); n = -n }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while n > 0 {
                buffer[count] = UInt8(truncatingIfNeeded: n % 10) &+ 0x30
                n /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[i]) }
        }
    }

    static func escape(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Why a scan of the bytes first: a name (a view's, written once per
        // frame) rarely needs escaping, and copying its bytes at once is a
        // few instructions a byte where the loop below, over the generic
        // `utf8` view, cost about a hundred (a third of writing the frames).
        var text = s
        let plain = text.withUTF8 { buffer -> Bool in
            for byte in buffer where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: buffer)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
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

/// Writes a JSON document piece by piece, in exactly the layout
/// ``JSONValue/serialized(indent:)`` gives the same document, so a large
/// answer (200,000 frames at 10^5 rows) is written without first building
/// it as a tree of values and then copying it as a String.
///
/// The caller opens and closes containers in order; keys go only inside
/// objects and ``element()`` only inside arrays (a misuse writes invalid
/// JSON, it does not trap: the writer is fed by this package's code only).
public struct JSONStreamWriter {
    public private(set) var bytes: [UInt8] = []
    let indent: Int?
    /// Per open container: how many members or elements it has so far.
    private var counts: [Int] = []

    /// Where the bytes go once ``flushThreshold`` of them are written (nil:
    /// they stay in ``bytes``).
    private let sink: (([UInt8]) -> Void)?
    private let flushThreshold: Int

    public init(indent: Int? = nil, reserving capacity: Int = 0) {
        self.indent = indent
        self.sink = nil
        self.flushThreshold = .max
        bytes.reserveCapacity(capacity)
    }

    /// A writer that hands its bytes to `sink` whenever `threshold` of them
    /// have been written (at the next member or element), and keeps only
    /// what follows. Why: an answer at 10^5 rows is 20 MB of JSON; kept
    /// whole, its buffer doubled as it grew and was copied once more to be
    /// written (about 45 MB at the process's peak). Call ``finish()`` for the
    /// last bytes.
    /// - Complexity: O(1) extra per member or element; the sink sees each byte once.
    public init(indent: Int? = nil, flushingEvery threshold: Int, to sink: @escaping ([UInt8]) -> Void) {
        self.indent = indent
        self.sink = sink
        self.flushThreshold = max(1, threshold)
        bytes.reserveCapacity(self.flushThreshold + 4096)
    }

    /// Hands what is left to the sink (a writer without one keeps it in ``bytes``).
    public mutating func finish() {
        guard let sink, !bytes.isEmpty else { return }
        sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func newline(_ level: Int) {
        guard let indent else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: indent * level))
    }

    /// Before a member or element: the comma after the previous one, and the new line.
    private mutating func separate() {
        if bytes.count >= flushThreshold { finish() }
        guard let last = counts.indices.last else { return }
        if counts[last] > 0 { bytes.append(UInt8(ascii: ",")) }
        counts[last] += 1
        newline(counts.count)
    }

    public mutating func beginObject() { bytes.append(UInt8(ascii: "{")); counts.append(0) }
    public mutating func beginArray() { bytes.append(UInt8(ascii: "[")); counts.append(0) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func close(_ bracket: UInt8) {
        let count = counts.popLast() ?? 0
        if count > 0 { newline(counts.count) }
        bytes.append(bracket)
    }

    /// A member's key inside an object; its value follows.
    public mutating func key(_ name: String) {
        separate()
        JSONValue.escape(name, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        if indent != nil { bytes.append(0x20) }
    }

    /// A newline after the document (a file's or a terminal's last line).
    public mutating func endLine() { bytes.append(0x0A) }

    /// Before each element of an array opened with ``beginArray()``.
    public mutating func element() { separate() }

    /// A whole value at the current position (small parts of the document).
    public mutating func value(_ v: JSONValue) { v.write(to: &bytes, indent: indent, level: counts.count) }

    /// An array of numbers on one line, as ``JSONValue`` writes them (`[x, y, w, h]`).
    public mutating func numbers(_ values: Double...) {
        if values.isEmpty { bytes.append(contentsOf: "[]".utf8); return }
        bytes.append(UInt8(ascii: "["))
        for (i, x) in values.enumerated() {
            if i > 0 { separator() }
            JSONValue.appendNumber(x, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `[a, b, c, d]` (a frame): ``numbers(_:)`` without the variadic
    /// argument's array, which was an allocation per view written.
    public mutating func numbers(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        bytes.append(UInt8(ascii: "["))
        JSONValue.appendNumber(a, to: &bytes)
        separator()
        JSONValue.appendNumber(b, to: &bytes)
        separator()
        JSONValue.appendNumber(c, to: &bytes)
        separator()
        JSONValue.appendNumber(d, to: &bytes)
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func separator() {
        bytes.append(UInt8(ascii: ","))
        if indent != nil { bytes.append(0x20) }
    }
}

/// A text stream into bytes: ASCII from a number's `write(to:)` is
/// appended as it is, anything else as the String's UTF-8.
private struct ByteSink: TextOutputStream {
    var bytes: [UInt8] = []

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}
