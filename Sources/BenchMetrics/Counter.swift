/// A machine-independent count a run records per case and solver: the one
/// owner of the counter names that results files (`counters`), baselines and
/// reports spell. Counters gate exactly (allocations within a small slack),
/// where times gate statistically.
public enum Counter: String, Hashable, Sendable, CaseIterable, Codable, CodingKeyRepresentable, Comparable,
                     CustomStringConvertible {
    /// Pivots of the native solver's load and first solve.
    case pivots
    /// Simplex iterations of the reference's lexicographic solve (all levels).
    case simplexIterations = "simplex-iterations"
    /// Simplex calls of the reference's lexicographic solve.
    case simplexCalls = "simplex-calls"
    /// Heap allocations of one operation of a phase (the median over samples).
    case allocationsLoad = "allocations/load"
    case allocationsSolve = "allocations/solve"
    case allocationsResize = "allocations/resize"
    case allocationsSwitch = "allocations/switch"
    case allocationsAddRemove = "allocations/add+remove"

    /// The name in files (interpolation spells it too).
    public var description: String { rawValue }

    /// Whether it counts allocations (gated with a slack: a load's count
    /// varies by a few between processes of unchanged code).
    public var isAllocationCount: Bool { phase != nil }

    /// The phase an allocation counter counts; nil for the others.
    public var phase: Phase? {
        switch self {
        case .allocationsLoad: return .load
        case .allocationsSolve: return .solve
        case .allocationsResize: return .resize
        case .allocationsSwitch: return .switch
        case .allocationsAddRemove: return .addRemove
        case .pivots, .simplexIterations, .simplexCalls: return nil
        }
    }

    /// Why by name: files and reports list counters sorted by what they spell.
    public static func < (a: Counter, b: Counter) -> Bool { a.rawValue < b.rawValue }
}
