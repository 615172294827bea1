/// The key of a baseline's time: which solver, which phase. Written
/// `SOLVER/PHASE` (`cassowary/load`), as baseline files have always spelled
/// it; read back by splitting at the last `/` (a phase name has none).
public struct SolverPhase: Hashable, Sendable, Comparable, CustomStringConvertible, Codable, CodingKeyRepresentable {
    public var solver: String
    public var phase: Phase

    public init(_ solver: String, _ phase: Phase) {
        self.solver = solver
        self.phase = phase
    }

    /// Parses `SOLVER/PHASE`; nil for another shape or an unknown phase.
    public init?(_ text: String) {
        guard let slash = text.lastIndex(of: "/"), let phase = Phase(rawValue: String(text[text.index(after: slash)...])),
              slash > text.startIndex else { return nil }
        self.init(String(text[..<slash]), phase)
    }

    public var description: String { "\(solver)/\(phase.rawValue)" }
    /// By the text, the order files and findings list them in.
    public static func < (a: SolverPhase, b: SolverPhase) -> Bool { a.description < b.description }

    public var codingKey: any CodingKey { BaselineKey(description) }
    public init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let key = SolverPhase(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not SOLVER/PHASE"))
        }
        self = key
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The key of a baseline's verdict: which variant, which solver. Written
/// `VARIANT/SOLVER` (`default/glpk`); read back by splitting at the first `/`
/// (a variant name has none).
public struct VariantSolver: Hashable, Sendable, Comparable, CustomStringConvertible, Codable, CodingKeyRepresentable {
    public var variant: String
    public var solver: String

    public init(_ variant: String, _ solver: String) {
        self.variant = variant
        self.solver = solver
    }

    /// Parses `VARIANT/SOLVER`; nil for another shape.
    public init?(_ text: String) {
        guard let slash = text.firstIndex(of: "/"), slash > text.startIndex, text.index(after: slash) < text.endIndex
        else { return nil }
        self.init(String(text[..<slash]), String(text[text.index(after: slash)...]))
    }

    public var description: String { "\(variant)/\(solver)" }
    public static func < (a: VariantSolver, b: VariantSolver) -> Bool { a.description < b.description }

    public var codingKey: any CodingKey { BaselineKey(description) }
    public init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let key = VariantSolver(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not VARIANT/SOLVER"))
        }
        self = key
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A dictionary key as written.
struct BaselineKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ text: String) { stringValue = text }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
