import BenchMetrics

import CGLPK
import Dispatch
import Foundation
import LayoutModel
import LayoutSolving

/// The reference solver: GLPK's simplex, level by level, with minimal
/// conflicts and ambiguity analysis. It must be right first and fast second;
/// every other solver is judged against it.
public final class GLPKLayoutSolver: LayoutSolver {
    public let name = "glpk"
    public let capabilities = SolverCapabilities(incremental: false, editVariables: true, prioritySemantics: .lexicographic,
                                                 ambiguityAnalysis: true, conflictExplanation: true)

    /// Per-solve figures: each level's optimum and simplex iterations, and
    /// time inside `glp_simplex` against time in the wrapper.
    public struct Statistics: Hashable, Sendable {
        public var levels: [(priority: Priority, optimum: Double, iterations: Int)]
        public var simplexCalls: Int
        public var simplexSeconds: Double
        /// Seconds in every other GLPK call (building, crash basis, bounds, reading).
        public var otherGLPKSeconds: Double = 0
        /// Simplex iterations of the whole solve (levels, conflicts, ambiguity).
        public var totalIterations: Int = 0
        /// Seconds in GLPK altogether.
        public var glpkSeconds: Double { simplexSeconds + otherGLPKSeconds }

        public static func == (a: Self, b: Self) -> Bool {
            a.levels.map(\.priority) == b.levels.map(\.priority) && a.levels.map(\.optimum) == b.levels.map(\.optimum)
                && a.simplexCalls == b.simplexCalls
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(simplexCalls) }
    }

    /// Whether to compute each free variable's range (for `--explain`), not just which are free.
    public var computeRanges: Bool
    /// Whether to run the ambiguity analysis at all.
    public var analyseAmbiguity: Bool
    /// Whether the analysis first decides from the final basis which
    /// variables are constant (no LP), leaving LPs to the rest. Off: two LPs
    /// per constrained variable, the method the shortcut is checked against
    /// (the same lists; tests compare them).
    public var basisShortcut = true
    /// Where the first solve starts (`LexicographicLP.makeCrashPlan`): the
    /// answers are the same either way, only the pivots differ. The
    /// environment variable `LAYOUT_BENCH_GLPK_CRASH` (`automatic`, `always`,
    /// `never`) sets the default, so that a fuzz campaign can force the crash
    /// on layouts too small to take it (docs/design/glpk-reference.md, "The
    /// first solve of a large problem: the crash plan").
    public var crashPolicy: CrashPolicy = CrashPolicy.fromEnvironment

    /// Where the first solve starts.
    public enum CrashPolicy: String, Sendable {
        /// From the reduced LPs' bases on problems GLPK would presolve
        /// (2,000 rows or more), from GLPK's own start on smaller ones.
        case automatic
        /// From the reduced LPs' bases whatever the size (the tests compare it with `never`).
        case always
        /// From GLPK's own start: its presolver on large problems.
        case never

        /// `LAYOUT_BENCH_GLPK_CRASH`, or `automatic` when unset or unknown.
        static let fromEnvironment: CrashPolicy =
            ProcessInfo.processInfo.environment["LAYOUT_BENCH_GLPK_CRASH"].flatMap(CrashPolicy.init(rawValue:)) ?? .automatic
    }
    /// Nil: lexicographic (the format's semantics). Otherwise one LP with
    /// these weights per priority (a weighted approximation, for comparison).
    public var weights: [Priority: Double]?

    public private(set) var statistics = Statistics(levels: [], simplexCalls: 0, simplexSeconds: 0)

    public var levelStatistics: [LevelStatistics] {
        statistics.levels.map { LevelStatistics(priority: $0.priority, optimum: $0.optimum, iterations: $0.iterations) }
    }

    /// The ranges of the last solve (computed only with ``computeRanges``).
    public func frameRanges() -> [FrameRange]? { computeRanges ? ranges : nil }

    /// The last solve's simplex iterations (levels, conflicts, ambiguity) and calls.
    public var counters: [Counter: Double] {
        [.simplexIterations: Double(statistics.totalIterations), .simplexCalls: Double(statistics.simplexCalls)]
    }
    /// The ranges of the free frame variables of the last solution (with ``computeRanges``).
    public private(set) var ranges: [FrameRange] = []

    var lp: LexicographicLP?
    /// The loaded layout, validated once by whoever made it.
    var validated: ValidatedLayout?
    var layout: Layout? { validated?.layout }
    var variant: Variant?
    /// The active constraint indices of each variant seen, made once.
    var activeSets: [String: Set<Int>] = [:]
    /// GLPK time spent building the current problem (reported with the first solve).
    var buildSeconds = 0.0

    /// The median round trip of an empty job to the GLPK thread and back, in
    /// seconds: the fixed cost that every `prepare` and `solve` pays on top
    /// of the work (the scaling command reports it to explain the wrapper's
    /// overhead on small layouts).
    ///
    /// - Complexity: O(*rounds*) hand-offs.
    public static func handOffSeconds(rounds: Int = 1000) -> Double {
        var samples: [Double] = []
        samples.reserveCapacity(max(1, rounds))
        for _ in 0..<max(1, rounds) {
            let start = DispatchTime.now().uptimeNanoseconds
            GLPKThread.shared.sync { () }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    /// Waits for the GLPK thread's queued work (problems freed asynchronously)
    /// to finish; returns at once when there is none. Why: the allocation
    /// counters are process-wide, and an asynchronous free running during
    /// another solver's measured operation was counted as that solver's
    /// (one allocation, one run in three). The harness calls this before each
    /// counted operation, outside the timed region.
    public static func waitForPendingWork() { GLPKThread.shared.drain() }

    /// GLPK's version, e.g. "5.0".
    public static var glpkVersion: String { GLPKThread.version }

    public init(analyseAmbiguity: Bool = true, computeRanges: Bool = false, weights: [Priority: Double]? = nil) {
        self.analyseAmbiguity = analyseAmbiguity
        self.computeRanges = computeRanges
        self.weights = weights
    }

    public func prepare(_ validated: ValidatedLayout, variant name: String?) throws(SolverError) {
        let layout = validated.layout
        guard let variant = layout.variant(named: name) else { throw .unknownVariant(name ?? Layout.defaultVariantName) }
        let built: Result<LexicographicLP, GLPKError> = GLPKThread.shared.sync {
            do throws(GLPKError) { return .success(try LexicographicLP(layout: validated, rightToLeft: Layout.isRightToLeft(variant))) } catch { return .failure(error) }
        }
        switch built {
        case .success(let lp):
            lp.crashPolicy = crashPolicy
            self.lp = lp
            buildSeconds = lp.otherGLPKSeconds
        case .failure(let error): throw .backend(BackendError(solver: "glpk", error))
        }
        self.validated = validated
        activeSets = [:]
        self.variant = variant
    }

    public func solve() throws(SolverError) -> Solution {
        guard let variant else { throw .notLoaded }
        return try solve(variant)
    }

    public func addConstraint(_ constraint: LayoutConstraint) throws(SolverError) -> ConstraintHandle {
        throw .unsupported("the GLPK reference re-solves; it does not add constraints incrementally")
    }

    public func removeConstraint(_ handle: ConstraintHandle) throws(SolverError) {
        throw .unsupported("the GLPK reference re-solves; it does not remove constraints incrementally")
    }

    public func resize(to size: ContainerSize) throws(SolverError) -> Solution {
        guard var variant else { throw .notLoaded }
        try size.validatedForResize()
        variant.size = size
        return try solve(variant)
    }

    public func switchVariant(to name: String?) throws(SolverError) -> Solution {
        guard let layout else { throw .notLoaded }
        guard let variant = layout.variant(named: name) else { throw .unknownVariant(name ?? Layout.defaultVariantName) }
        return try solve(variant)
    }

    struct Outcome: @unchecked Sendable {
        var values: [Double]
        var feasible: Bool
        var conflictRows: [Int]
        var levels: [LexicographicLP.LevelResult]
        var ranges: [LexicographicLP.Range]
        var simplexCalls: Int
        var simplexSeconds: Double
        var otherGLPKSeconds = 0.0
        var iterations = 0
    }

    /// Solves `variant` (a resize or a switch is a solve of the variant it
    /// leads to), on the LP of its direction, from the last basis.
    func solve(_ variant: Variant) throws(SolverError) -> Solution {
        let (lp, layout) = try lpInDirection(of: variant)
        self.variant = variant
        let active = activeConstraints(of: variant, in: layout)
        let outcome = try solveOnGLPKThread(lp, active: active, size: variant.size)
        statistics = Statistics(levels: outcome.levels.map { ($0.priority, $0.optimum, $0.iterations) },
                                simplexCalls: outcome.simplexCalls, simplexSeconds: outcome.simplexSeconds,
                                otherGLPKSeconds: outcome.otherGLPKSeconds + buildSeconds, totalIterations: outcome.iterations)
        buildSeconds = 0
        return solution(from: outcome, of: lp, variant: variant, active: active, layout: layout)
    }

    /// The LP of `variant`'s direction, with the loaded layout: the current
    /// LP, or the other direction's, built now and kept as the current one.
    /// - Throws: ``SolverError/notLoaded``; ``SolverError/backend(_:)`` when the build fails.
    private func lpInDirection(of variant: Variant) throws(SolverError) -> (lp: LexicographicLP, layout: Layout) {
        guard var lp, let validated else { throw .notLoaded }
        let layout = validated.layout
        if lp.rightToLeft != Layout.isRightToLeft(variant) {
            // The other direction's rows differ: build its LP (a switch between
            // directions is a fresh load for the reference).
            let built: Result<LexicographicLP, GLPKError> = GLPKThread.shared.sync {
                do throws(GLPKError) { return .success(try LexicographicLP(layout: validated, rightToLeft: !lp.rightToLeft)) } catch { return .failure(error) }
            }
            switch built {
            case .success(let new): new.crashPolicy = crashPolicy; lp = new; self.lp = new
            case .failure(let error): throw .backend(BackendError(solver: "glpk", error))
            }
        }
        return (lp, layout)
    }

    /// The active constraint indices of `variant`, made once per variant.
    private func activeConstraints(of variant: Variant, in layout: Layout) -> Set<Int> {
        // Why cache by variant: a resize keeps the variant, and the active set
        // is what tells `configure` that no row bounds need to change.
        let active: Set<Int>
        if let cached = activeSets[variant.name] {
            active = cached
        } else {
            active = Set(layout.constraints.indices.filter { layout.constraints[$0].isActive(under: variant.traits) })
            activeSets[variant.name] = active
        }
        return active
    }

    /// Runs ``outcome(of:active:size:weights:analyse:wantRanges:shortcut:)``
    /// on the GLPK thread with this solver's settings.
    /// - Throws: ``SolverError/numericalTrouble(_:)`` when GLPK's simplex
    ///   stops or reports a status that is no answer; ``SolverError/backend(_:)``
    ///   for any other GLPK error.
    private func solveOnGLPKThread(_ lp: LexicographicLP, active: Set<Int>, size: ContainerSize) throws(SolverError) -> Outcome {
        let analyse = analyseAmbiguity && weights == nil, wantRanges = computeRanges, weights = self.weights
        let shortcut = basisShortcut
        let box = SendableLP(lp: lp)
        let result: Result<Outcome, GLPKError> = GLPKThread.shared.sync {
            do throws(GLPKError) {
                return .success(try Self.outcome(of: box.lp, active: active, size: size, weights: weights, analyse: analyse,
                                                 wantRanges: wantRanges, shortcut: shortcut))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let o): return o
        case .failure(.simplexFailed(let code, let meaning)):
            throw .numericalTrouble("GLPK's simplex stopped (\(code): \(meaning)) after scaling and a fresh basis")
        case .failure(.unexpectedStatus(let status)):
            throw .numericalTrouble("GLPK reported '\(status)' for an LP that must be solvable (its tolerances at this scale)")
        case .failure(let error): throw .backend(BackendError(solver: "glpk", error))
        }
    }

    /// One solve of `lp` (on the GLPK thread): the variant's bounds, then the
    /// weighted LP if there are `weights`, else the lexicographic solve and
    /// the ambiguity analysis if `analyse`; a minimal conflict when
    /// infeasible. The counters are this solve's share of `lp`'s.
    /// - Throws: ``GLPKError`` from any of those steps.
    private static func outcome(of lp: LexicographicLP, active: Set<Int>, size: ContainerSize, weights: [Priority: Double]?,
                                analyse: Bool, wantRanges: Bool, shortcut: Bool) throws(GLPKError) -> Outcome
    {
        let calls = lp.simplexCalls, seconds = lp.simplexSeconds, other = lp.otherGLPKSeconds
        let startIterations = lp.iterationCount()
        try lp.configure(active: active, size: size)
        if let weights {
            let feasible = try lp.solveWeighted(weights)
            return Outcome(values: lp.values(), feasible: feasible,
                           conflictRows: feasible ? [] : try lp.minimalConflict(), levels: [], ranges: [],
                           simplexCalls: lp.simplexCalls - calls, simplexSeconds: lp.simplexSeconds - seconds,
                           otherGLPKSeconds: lp.otherGLPKSeconds - other,
                           iterations: lp.iterationCount() - startIterations)
        }
        guard let levels = try lp.solveLexicographically() else {
            let conflict = try lp.minimalConflict()
            return Outcome(values: lp.values(), feasible: false, conflictRows: conflict, levels: [], ranges: [],
                           simplexCalls: lp.simplexCalls - calls, simplexSeconds: lp.simplexSeconds - seconds,
                           otherGLPKSeconds: lp.otherGLPKSeconds - other,
                           iterations: lp.iterationCount() - startIterations)
        }
        let values = lp.values()
        let ranges = analyse ? try lp.ambiguity(ranges: wantRanges, basisShortcut: shortcut) : []
        return Outcome(values: values, feasible: true, conflictRows: [], levels: levels, ranges: ranges,
                       simplexCalls: lp.simplexCalls - calls, simplexSeconds: lp.simplexSeconds - seconds,
                       otherGLPKSeconds: lp.otherGLPKSeconds - other,
                       iterations: lp.iterationCount() - startIterations)
    }

    /// The solution of `outcome` for `variant`; keeps the free frame
    /// variables' ranges in ``ranges``.
    private func solution(from outcome: Outcome, of lp: LexicographicLP, variant: Variant, active: Set<Int>,
                          layout: Layout) -> Solution
    {
        let system = lp.system(variant: variant.name, active: active, size: variant.size)
        let values = outcome.values
        let names = lp.viewNames
        ranges = outcome.ranges.compactMap { r in
            guard let variable = FrameVariable(index: r.variable), names.indices.contains(variable.view) else { return nil }
            return FrameRange(view: names[variable.view], component: variable.component, minimum: r.minimum, maximum: r.maximum)
        }
        // Why a flag per view: searching the list for each free component was
        // quadratic, O(views²) (evidence: docs/measurements.md#m-glpk-costs).
        var freeViews: [String] = []
        var listed = [Bool](repeating: false, count: names.count)
        for r in outcome.ranges {
            guard let view = FrameVariable(index: r.variable)?.view, names.indices.contains(view), !listed[view] else { continue }
            listed[view] = true
            freeViews.append(names[view])
        }
        let conflict = outcome.conflictRows.map { ConflictMember(origin: lp.rows[$0].row.origin, in: layout, size: variant.size) }
        return Solution(variant: variant.name, status: outcome.feasible ? .solved : .unsatisfiable, viewNames: names,
                        frames: system.frames(values), levels: outcome.feasible ? system.levelErrors(values) : [],
                        ambiguous: outcome.feasible && analyseAmbiguity && weights == nil ? freeViews : nil, conflict: conflict)
    }
}

/// The LP handed to the GLPK thread (only that thread touches it).
struct SendableLP: @unchecked Sendable {
    let lp: LexicographicLP
}
