import LayoutModel

/// What a solver can do; the harness uses what a solver has and marks the
/// rest unsupported.
public struct SolverCapabilities: Hashable, Sendable {
    public enum PrioritySemantics: String, Hashable, Sendable {
        /// Higher levels always win (the format's semantics).
        case lexicographic
        /// Levels are weights (kiwi's 1e6/1e3/1): may trade a level for enough lower-level error.
        case weighted
    }

    /// Add and remove constraints without rebuilding.
    public var incremental: Bool
    /// Resize through edit variables without rebuilding.
    public var editVariables: Bool
    public var prioritySemantics: PrioritySemantics
    /// Reports which views are ambiguous.
    public var ambiguityAnalysis: Bool
    /// Reports a minimal conflict for unsatisfiable layouts.
    public var conflictExplanation: Bool

    public init(incremental: Bool, editVariables: Bool, prioritySemantics: PrioritySemantics,
                ambiguityAnalysis: Bool, conflictExplanation: Bool) {
        self.incremental = incremental
        self.editVariables = editVariables
        self.prioritySemantics = prioritySemantics
        self.ambiguityAnalysis = ambiguityAnalysis
        self.conflictExplanation = conflictExplanation
    }
}

/// Why a solver could not produce a solution (unsatisfiable layouts are a
/// ``Solution/Status``, not an error).
public enum SolverError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownVariant(String)
    case invalidLayout([Diagnostic])
    /// `resize` or `switchVariant` before `load`.
    case notLoaded
    /// The solver does not have this capability (the harness marks it unsupported).
    case unsupported(String)
    /// An external solver crashed, timed out or answered out of protocol.
    case external(String)
    /// A bug or a numerical breakdown inside the solver.
    case internalError(String)

    public var description: String {
        switch self {
        case .unknownVariant(let name): return "unknown variant '\(name)'"
        case .invalidLayout(let diagnostics):
            return "invalid layout: " + diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "; ")
        case .notLoaded: return "no layout is loaded"
        case .unsupported(let what): return "unsupported: \(what)"
        case .external(let what): return what
        case .internalError(let message): return "internal solver error: \(message)"
        }
    }

    public init(_ error: LoweringError) {
        switch error {
        case .unknownVariant(let name): self = .unknownVariant(name)
        case .invalidLayout(let diagnostics): self = .invalidLayout(diagnostics)
        }
    }
}

/// A solver of whole layouts, as the harness drives it: prepare a layout in a
/// variant (build the tableau or LP), solve, then resize, switch variants, add
/// and remove constraints incrementally where it can.
public protocol LayoutSolver: AnyObject {
    /// The solver's name in reports (`cassowary`, `glpk`, ...).
    var name: String { get }
    var capabilities: SolverCapabilities { get }

    /// Builds the solver's representation of a layout in a variant (nil: the
    /// container line). Incremental solvers may already optimise here.
    /// - Throws: ``SolverError``.
    func prepare(_ layout: Layout, variant: String?) throws(SolverError)

    /// The solution of what was prepared (or last changed).
    /// - Throws: ``SolverError/notLoaded`` before ``prepare(_:variant:)``.
    func solve() throws(SolverError) -> Solution

    /// Changes the container size of the loaded variant and re-solves.
    /// - Throws: ``SolverError/notLoaded``.
    func resize(to size: ContainerSize) throws(SolverError) -> Solution

    /// Switches the loaded layout to another variant (its size, traits and
    /// `when` constraints) and re-solves.
    /// - Throws: ``SolverError``.
    func switchVariant(to variant: String?) throws(SolverError) -> Solution

    /// Adds one more constraint to the loaded layout (incremental solvers).
    /// - Returns: a handle for ``removeConstraint(_:)``.
    /// - Throws: ``SolverError/unsupported(_:)`` without the capability.
    func addConstraint(_ constraint: LayoutConstraint) throws(SolverError) -> Int

    /// Removes a constraint added with ``addConstraint(_:)``.
    /// - Throws: ``SolverError/unsupported(_:)`` without the capability.
    func removeConstraint(_ handle: Int) throws(SolverError)
}

extension LayoutSolver {
    /// Prepares and solves.
    public func load(_ layout: Layout, variant: String?) throws(SolverError) -> Solution {
        try prepare(layout, variant: variant)
        return try solve()
    }
}
