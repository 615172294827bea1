import BenchMetrics

/// The key of a baseline's time: which solver, which phase. Written
/// `SOLVER/PHASE` (`cassowary/load`), as baseline files have always spelled
/// it; read back by splitting at the last `/` (a phase name has none).
public struct SolverPhase: SlashKey {
    public static let shape = "SOLVER/PHASE"
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
}

/// The key of a baseline's verdict: which variant, which solver. Written
/// `VARIANT/SOLVER` (`default/glpk`); read back by splitting at the first `/`
/// (a variant name has none).
public struct VariantSolver: SlashKey {
    public static let shape = "VARIANT/SOLVER"
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
}

/// A pair of names written `A/B` in baseline files: coded as that string,
/// as a value and as a dictionary key, and ordered by it (files and findings
/// list them that way).
public protocol SlashKey: Hashable, Sendable, Comparable, CustomStringConvertible, Codable, CodingKeyRepresentable {
    /// How it is written, for errors (`SOLVER/PHASE`).
    static var shape: String { get }
    /// Parses the written form; nil for another shape.
    init?(_ text: String)
}

extension SlashKey {
    public static func < (a: Self, b: Self) -> Bool { a.description < b.description }

    public var codingKey: any CodingKey { BaselineKey(description) }
    public init?<T: CodingKey>(codingKey: T) { self.init(codingKey.stringValue) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let key = Self(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not \(Self.shape)"))
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
