import BenchMetrics

import Foundation
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

/// How far one frame component of an ambiguous view can move on the
/// optimal face (±infinity when unbounded): what `solve --explain` prints.
public struct FrameRange: Hashable, Sendable {
    public var view: String
    public var component: FrameComponent
    public var minimum: Double
    public var maximum: Double

    public init(view: String, component: FrameComponent, minimum: Double, maximum: Double) {
        self.view = view
        self.component = component
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// One priority level of a lexicographic solve: its optimum (the level's
/// weighted error) and the simplex iterations it took.
public struct LevelStatistics: Hashable, Sendable {
    public var priority: Priority
    public var optimum: Double
    public var iterations: Int

    public init(priority: Priority, optimum: Double, iterations: Int) {
        self.priority = priority
        self.optimum = optimum
        self.iterations = iterations
    }
}

/// A constraint added to a loaded layout, for removing it again.
///
/// Typed and tied to the load it was made in: every `prepare` starts a new
/// load with a process-wide unique number, and a solver refuses a handle of
/// another load (``SolverError/staleHandle(_:)``). Why: solvers renumber their
/// constraints on every load, and a plain integer from an earlier load once
/// removed an unrelated constraint of the next.
public struct ConstraintHandle: Hashable, Sendable, CustomStringConvertible {
    /// The load the handle belongs to.
    public let load: LoadID
    /// The constraint within that load.
    public let index: Int

    public init(load: LoadID, index: Int) {
        self.load = load
        self.index = index
    }

    public var description: String { "constraint \(index) of load \(load.value)" }
}

/// One `prepare` of one solver: unique within the process.
public struct LoadID: Hashable, Sendable {
    public let value: UInt64

    /// A number no other load of this process has.
    public static func next() -> LoadID { LoadID(value: LoadCounter.shared.next()) }
}

/// The process-wide load counter (a lock: loads are rare next to solving).
final class LoadCounter: @unchecked Sendable {
    static let shared = LoadCounter()
    private let lock = NSLock()
    private var last: UInt64 = 0

    func next() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        last &+= 1
        return last
    }
}

/// An answer of an external solver that breaks the protocol, located: the
/// request it answered and the field (a JSON path such as `values[3]`).
public struct ProtocolViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request answered (`hello`, `load`, `solve`, ...).
    public var operation: String
    /// The JSON path of the offending field in the answer; empty for the answer as a whole.
    public var field: String
    /// What the protocol asks for there.
    public var expected: String
    /// What came instead, shortened.
    public var found: String

    public init(operation: String, field: String, expected: String, found: String) {
        self.operation = operation
        self.field = field
        self.expected = expected
        self.found = found
    }

    public var description: String {
        let place = field.isEmpty ? "the answer to '\(operation)'" : "'\(field)' in the answer to '\(operation)'"
        return "\(place): expected \(expected), found \(found)"
    }
}

/// Why an external solver (a child process, docs/solver-protocol.md) gave no
/// answer: which solver, and what happened, as a case a caller can switch on
/// (a crash is not a timeout is not a refusal).
public struct ExternalFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Error, Hashable, Sendable, CustomStringConvertible {
        /// The command could not be run (missing executable, empty command).
        case couldNotStart(String)
        /// No answer within the deadline; the child was killed.
        case timedOut(seconds: Double, operation: String)
        /// The child exited (or was killed by a signal, shell-style `128 + n`)
        /// before it answered; the tail of its standard error.
        case exited(status: Int32, stderr: String)
        /// An answer line longer than the channel accepts (a child printing
        /// without end).
        case flooded(bytes: Int)
        /// The child answered `"ok": false` to `operation`.
        case declined(operation: String, message: String)

        public var description: String {
            switch self {
            case .couldNotStart(let why): return "could not start: \(why)"
            case .timedOut(let seconds, let operation): return "timed out after \(seconds) s during '\(operation)'"
            case .exited(let status, let stderr):
                return "exited with status \(status)" + (stderr.isEmpty ? "" : ": " + stderr.suffix(300))
            case .flooded(let bytes): return "flooded its output (a line of more than \(bytes) bytes)"
            case .declined(let operation, let message): return "\(operation) failed: \(message)"
            }
        }
    }

    /// The solver's name in the registry.
    public let solver: String
    public let reason: Reason

    public init(solver: String, _ reason: Reason) {
        self.solver = solver
        self.reason = reason
    }

    public var description: String { "\(solver): \(reason)" }
}

/// A solver backend's own typed error, kept whole rather than flattened to
/// text: which solver, where (the constraint being added, when known), and
/// the error itself, so that a caller can ask for it by type
/// (`error.underlying as? CassowaryError`) and print it.
public struct BackendError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The solver whose backend failed (`cassowary`, `glpk`).
    public let solver: String
    /// What it was doing (a constraint's name), if known.
    public let context: String?
    /// The backend's error.
    public let underlying: any Error & Sendable & CustomStringConvertible

    public init(solver: String, context: String? = nil, _ underlying: any Error & Sendable & CustomStringConvertible) {
        self.solver = solver
        self.context = context
        self.underlying = underlying
    }

    public var description: String { (context.map { "\($0): " } ?? "") + underlying.description }

    /// Why by text: the backends' errors are of different types; two are the
    /// same failure when they say the same thing about the same solver.
    public static func == (a: BackendError, b: BackendError) -> Bool {
        a.solver == b.solver && a.description == b.description
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(solver)
        hasher.combine(description)
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
    /// An external solver crashed, timed out, could not start or declined
    /// (an answer out of protocol is ``protocolViolation(solver:_:)``).
    case external(ExternalFailure)
    /// Not attempted: an earlier variant of the same case failed, and the
    /// solver's state after a failure says nothing.
    case notRunAfterError
    /// A bug inside the solver's backend, with the backend's typed error.
    case backend(BackendError)
    /// A handle of another load, or one already removed.
    case staleHandle(ConstraintHandle)
    /// The solver's arithmetic broke down on this input (cycling, a singular
    /// basis, an answer that contradicts itself): it declines to answer
    /// rather than answer wrongly. Not a crash; the run goes on.
    case numericalTrouble(String)
    /// ``LayoutSolver/prepare(_:of:)`` was given a system that was not lowered
    /// from the layout (a caller's mistake, refused before any indexing).
    case mismatchedSystem(variant: String)
    /// An external solver answered, but not as the protocol says
    /// (docs/solver-protocol.md): which answer, which field, what was expected.
    case protocolViolation(solver: String, ProtocolViolation)

    public var description: String {
        switch self {
        case .unknownVariant(let name): return "unknown variant '\(name)'"
        case .invalidLayout(let diagnostics):
            return "invalid layout: " + diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "; ")
        case .notLoaded: return "no layout is loaded"
        case .unsupported(let what): return "unsupported: \(what)"
        case .external(let failure): return failure.description
        case .notRunAfterError: return "not run after an earlier error"
        case .backend(let error): return "internal solver error: \(error)"
        case .numericalTrouble(let what): return "numerical trouble: \(what)"
        case .mismatchedSystem(let variant): return "the lowered system of variant '\(variant)' was not lowered from this layout"
        case .staleHandle(let handle): return "\(handle) is not in this solver's current load (stale or already removed)"
        case .protocolViolation(let solver, let violation): return "\(solver): protocol error: \(violation)"
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
    /// Machine-independent work of the last ``prepare(_:variant:)`` and the
    /// solves since (pivots, simplex iterations): what results files record
    /// and gates compare exactly. Empty for a solver that counts nothing.
    var counters: [Counter: Double] { get }
    /// Each level of the last solve, for explanations; empty for a solver
    /// that does not solve level by level or does not say.
    var levelStatistics: [LevelStatistics] { get }

    /// The ranges of the free frame components of the last solution's
    /// ambiguous views (`solve --explain`); nil for a solver that cannot say.
    /// - Complexity: up to two LPs (or warm-started re-solves) per free component.
    func frameRanges() -> [FrameRange]?

    /// Builds the solver's representation of a validated layout in a variant
    /// (nil: the container line). Incremental solvers may already optimise
    /// here. A plain ``Layout`` goes through the extension's
    /// ``prepare(_:variant:)-(Layout,_)``, which validates it once.
    /// - Throws: ``SolverError``.
    func prepare(_ layout: ValidatedLayout, variant: String?) throws(SolverError)

    /// ``prepare(_:variant:)`` for a system the caller has already lowered
    /// from `layout`: `system` must be the result of `layout.lowered(variant:)`.
    /// Why: lowering again inside every solver doubled the front end's share
    /// of a `solve`; callers that time stages (`solve --profile`) need each
    /// stage once.
    ///
    /// A system whose variables do not match `layout` is refused with
    /// ``SolverError/mismatchedSystem(variant:)``, never trapped on.
    /// - Throws: ``SolverError``.
    /// - Complexity: O(size of the system) on top of the solver's own build.
    func prepare(_ system: LoweredSystem, of layout: ValidatedLayout) throws(SolverError)

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
    /// - Returns: a handle for ``removeConstraint(_:)``, valid until the next `prepare`.
    /// - Throws: ``SolverError/unsupported(_:)`` without the capability.
    func addConstraint(_ constraint: LayoutConstraint) throws(SolverError) -> ConstraintHandle

    /// Removes a constraint added with ``addConstraint(_:)`` in the current load.
    /// - Throws: ``SolverError/staleHandle(_:)`` for a handle of another load or
    ///   one already removed; ``SolverError/unsupported(_:)`` without the capability.
    func removeConstraint(_ handle: ConstraintHandle) throws(SolverError)
}

extension LayoutSolver {
    public var counters: [Counter: Double] { [:] }
    public var levelStatistics: [LevelStatistics] { [] }
    public func frameRanges() -> [FrameRange]? { nil }

    /// Solvers that build from the layout itself (not a lowered system)
    /// prepare the system's variant.
    public func prepare(_ system: LoweredSystem, of layout: ValidatedLayout) throws(SolverError) {
        try prepare(layout, variant: system.variant)
    }

    /// Validates `layout` (once) and prepares it.
    /// - Throws: ``SolverError/invalidLayout(_:)`` for a layout with errors; what the solver's own `prepare` throws.
    public func prepare(_ layout: Layout, variant: String?) throws(SolverError) {
        let validated: ValidatedLayout
        do { validated = try layout.validated() } catch { throw SolverError(error) }
        try prepare(validated, variant: variant)
    }

    /// Prepares and solves.
    public func load(_ layout: Layout, variant: String?) throws(SolverError) -> Solution {
        try prepare(layout, variant: variant)
        return try solve()
    }

    /// Prepares and solves a validated layout.
    public func load(_ layout: ValidatedLayout, variant: String?) throws(SolverError) -> Solution {
        try prepare(layout, variant: variant)
        return try solve()
    }
}
