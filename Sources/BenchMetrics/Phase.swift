/// What a run times, per case and solver: the one owner of the phase names
/// that results files, baselines (`SOLVER/PHASE` keys, `allocations/PHASE`
/// counters) and reports spell.
public enum Phase: String, Hashable, Sendable, CaseIterable, Codable, CodingKeyRepresentable, CustomStringConvertible {
    /// Parsing the case's text (no solver).
    case parse
    case load
    case solve
    /// A resize across the width sweep, per width.
    case resize
    /// Switching to a variant and back, per variant.
    case `switch`
    /// Adding the case's probe constraint and removing it (incremental solvers).
    case addRemove = "add+remove"

    /// The phases of a solver, in the order a round takes them.
    public static let solverPhases: [Phase] = [.load, .solve, .resize, .switch, .addRemove]

    /// The name in files. Why `description` too: an interpolated phase (a
    /// key, a caption) then spells the file's name, not the case's.
    public var description: String { rawValue }

    /// The counter that holds one operation's allocation count; nil for
    /// parsing, which runs no solver.
    public var allocationCounter: Counter? { Counter.allCases.first { $0.phase == self } }
}
