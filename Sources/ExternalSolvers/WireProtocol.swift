import Foundation
import LayoutSolving

/// One JSON value of an answer, decoded with strict types: a boolean is never
/// a number, a number never a string (JSONSerialization bridges them).
enum WireValue: Decodable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([WireValue]), object([String: WireValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Why Bool before Double: JSONDecoder refuses `true` as a Double and
        // `1` as a Bool, so the order only matters for speed; booleans are rare.
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([WireValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: WireValue].self)) }
    }

    /// How a wrong value is shown in a protocol error: its type and a short excerpt.
    var shown: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "\(b) (a boolean)"
        case .number(let n): return "\(n) (a number)"
        case .string(let s): return "\"\(s.prefix(40))\(s.count > 40 ? "..." : "")\" (a string)"
        case .array(let a): return "an array of \(a.count)"
        case .object: return "an object"
        }
    }
}

/// Reads the fields of one answer object, each read checked against the
/// protocol (docs/solver-protocol.md); a mismatch is a ``ProtocolViolation``
/// naming the operation, the field and what was expected.
struct AnswerReader {
    let operation: String
    let fields: [String: WireValue]

    /// Decodes one answer line into an object.
    /// - Throws: ``ProtocolViolation`` when the line is not a JSON object.
    init(line: Data, operation: String) throws(ProtocolViolation) {
        self.operation = operation
        let value: WireValue
        do { value = try JSONDecoder().decode(WireValue.self, from: line) } catch {
            throw ProtocolViolation(operation: operation, field: "", expected: "one JSON object on one line",
                                    found: "\"" + String(decoding: line.prefix(80), as: UTF8.self) + "\"")
        }
        guard case .object(let fields) = value else {
            throw ProtocolViolation(operation: operation, field: "", expected: "a JSON object", found: value.shown)
        }
        self.fields = fields
    }

    func violation(_ field: String, _ expected: String, _ value: WireValue?) -> ProtocolViolation {
        ProtocolViolation(operation: operation, field: field, expected: expected, found: value?.shown ?? "no such field")
    }

    func bool(_ key: String) throws(ProtocolViolation) -> Bool {
        guard case .bool(let b)? = fields[key] else { throw violation(key, "true or false", fields[key]) }
        return b
    }

    func string(_ key: String, nonEmpty: Bool = false) throws(ProtocolViolation) -> String {
        guard case .string(let s)? = fields[key], !nonEmpty || !s.isEmpty else {
            throw violation(key, nonEmpty ? "a non-empty string" : "a string", fields[key])
        }
        return s
    }

    /// One of `allowed`, spelled exactly.
    func token(_ key: String, _ allowed: [String]) throws(ProtocolViolation) -> String {
        guard case .string(let s)? = fields[key], allowed.contains(s) else {
            throw violation(key, allowed.map { "\"\($0)\"" }.joined(separator: " or "), fields[key])
        }
        return s
    }

    static func integer(_ value: WireValue?, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let n)? = value, n.rounded() == n, n >= Double(range.lowerBound), n <= Double(range.upperBound)
        else { return nil }
        return Int(n)
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(ProtocolViolation) -> Int {
        guard let n = Self.integer(fields[key], in: range) else {
            throw violation(key, "an integer in \(range.lowerBound)...\(range.upperBound)", fields[key])
        }
        return n
    }

    /// An optional field: absent or null is nil; present, it must be valid.
    func optionalInteger(_ key: String, in range: ClosedRange<Int>) throws(ProtocolViolation) -> Int? {
        switch fields[key] {
        case nil, .null?: return nil
        default: return try integer(key, in: range)
        }
    }

    /// `time_s`: absent means the solver did not time itself (never 0).
    func seconds() throws(ProtocolViolation) -> Double? {
        switch fields["time_s"] {
        case nil, .null?: return nil
        case .number(let n)? where n.isFinite && n >= 0: return n
        case let other: throw violation("time_s", "a finite number of seconds >= 0, or no field", other)
        }
    }

    /// An array of exactly `count` finite numbers.
    func numbers(_ key: String, count: Int) throws(ProtocolViolation) -> [Double] {
        guard case .array(let items)? = fields[key] else { throw violation(key, "an array of \(count) numbers", fields[key]) }
        guard items.count == count else {
            throw violation(key, "an array of \(count) numbers (one per variable)", fields[key])
        }
        var values: [Double] = []
        values.reserveCapacity(count)
        for (i, item) in items.enumerated() {
            guard case .number(let n) = item, n.isFinite else { throw violation("\(key)[\(i)]", "a finite number", item) }
            values.append(n)
        }
        return values
    }

    /// `free`: absent or null is nil (the solver did not say); present, an
    /// array of distinct variable indices in `0..<variables`.
    func freeVariables(_ key: String, variables: Int) throws(ProtocolViolation) -> [Int]? {
        switch fields[key] {
        case nil, .null?: return nil
        case .array(let items)?:
            var seen = Set<Int>()
            var result: [Int] = []
            for (i, item) in items.enumerated() {
                guard variables > 0, let n = Self.integer(item, in: 0...(variables - 1)), seen.insert(n).inserted else {
                    throw violation("\(key)[\(i)]", "a distinct variable index in 0..<\(variables)", item)
                }
                result.append(n)
            }
            return result
        case let other?: throw violation(key, "an array of variable indices, or no field", other)
        }
    }

    /// An array of distinct integers, each in `range`.
    func indices(_ key: String, in range: Range<Int>) throws(ProtocolViolation) -> [Int] {
        guard case .array(let items)? = fields[key] else {
            throw violation(key, "an array of row indices (empty if every row was added)", fields[key])
        }
        var seen = Set<Int>()
        var result: [Int] = []
        for (i, item) in items.enumerated() {
            guard !range.isEmpty, let n = Self.integer(item, in: range.lowerBound...(range.upperBound - 1)), seen.insert(n).inserted else {
                let expected = range.isEmpty ? "no index (no rows were sent)" : "a distinct row index in 0..<\(range.upperBound)"
                throw violation("\(key)[\(i)]", expected, item)
            }
            result.append(n)
        }
        return result
    }
}

/// What a solver said about itself in `hello`.
public struct SolverHello: Hashable, Sendable {
    public var name: String
    public var version: String
    public var protocolVersion: Int
    public var semantics: SolverCapabilities.PrioritySemantics
    public var incremental: Bool
    public var edits: Bool
    /// The most rows it accepts in one `load` (nil: no limit).
    public var maxRows: Int?
    /// It lists the variables that are not unique on the optimal face
    /// (`free` in solve answers), so its ambiguity lists are compared.
    public var ambiguity: Bool = false

    public var capabilities: SolverCapabilities {
        SolverCapabilities(incremental: incremental, editVariables: edits, prioritySemantics: semantics,
                           ambiguityAnalysis: ambiguity, conflictExplanation: false)
    }

    public var json: JSONValue {
        .object([
            ("name", .string(name)), ("version", .string(version)), ("protocol", .number(Double(protocolVersion))),
            ("semantics", .string(semantics.rawValue)), ("incremental", .bool(incremental)), ("edits", .bool(edits)),
            ("max_rows", maxRows.map { .number(Double($0)) } ?? .null), ("ambiguity", .bool(ambiguity)),
        ])
    }
}

/// The answers of the protocol, validated. One function per request kind;
/// every field the specification requires is checked, unknown fields are
/// ignored (so the protocol can grow compatibly).
enum WireProtocol {
    /// The version this harness speaks; `hello` answers must name it.
    static let version = 1

    /// A failed answer (`"ok": false`): the solver declined.
    struct Declined: Error {
        var message: String
        /// `"unsupported"`: the solver cannot do this (a size limit, a
        /// missing feature), which is not its failure.
        var unsupported: Bool
    }

    /// Reads `ok`, the error of a declined request, and `time_s`.
    /// - Throws: ``ProtocolViolation`` for a malformed answer.
    /// - Returns: the reader and the solver's seconds, or the refusal.
    static func envelope(_ line: Data, operation: String) throws(ProtocolViolation)
        -> Result<(AnswerReader, Double?), Declined> {
        let reader = try AnswerReader(line: line, operation: operation)
        let seconds = try reader.seconds()
        if try reader.bool("ok") { return .success((reader, seconds)) }
        let message = try reader.string("error", nonEmpty: true)
        let kind: String
        switch reader.fields["kind"] {
        case nil, .null?: kind = "failed"
        default: kind = try reader.token("kind", ["failed", "unsupported"])
        }
        return .failure(Declined(message: message, unsupported: kind == "unsupported"))
    }

    static func hello(_ r: AnswerReader) throws(ProtocolViolation) -> SolverHello {
        let name = try r.string("name", nonEmpty: true)
        let version = try r.string("version")
        let spoken = try r.integer("protocol", in: 1...1_000_000)
        guard spoken == Self.version else {
            throw r.violation("protocol", "\(Self.version) (the version this harness speaks)", r.fields["protocol"])
        }
        let semantics = try r.token("semantics", ["lexicographic", "weighted"])
        let ambiguity: Bool
        switch r.fields["ambiguity"] {
        case nil, .null?: ambiguity = false
        default: ambiguity = try r.bool("ambiguity")
        }
        return SolverHello(name: name, version: version, protocolVersion: spoken,
                           semantics: semantics == "lexicographic" ? .lexicographic : .weighted,
                           incremental: try r.bool("incremental"), edits: try r.bool("edits"),
                           maxRows: try r.optionalInteger("max_rows", in: 1...Int(Int32.max)), ambiguity: ambiguity)
    }

    /// A `solve` or `suggest` answer: the status, one value per variable,
    /// and the free variables (required of a solved answer when the hello
    /// promised `ambiguity`).
    static func solution(_ r: AnswerReader, variables: Int, ambiguity: Bool = false) throws(ProtocolViolation)
        -> (unsatisfiable: Bool, values: [Double], free: [Int]?)
    {
        let status = try r.token("status", ["solved", "unsatisfiable"])
        let values = try r.numbers("values", count: variables)
        let free = try r.freeVariables("free", variables: variables)
        if ambiguity && status == "solved" && free == nil {
            throw r.violation("free", "an array of variable indices (the hello promised ambiguity)", nil)
        }
        return (status == "unsatisfiable", values, free)
    }
}
