import CGLPK
import Foundation
import LayoutModel
import LayoutSolving

/// The LP of one layout, built once for all of its constraints (every
/// variant's), and solved lexicographically by priority level.
///
/// Columns: 4 free frame variables per view (`super` first), then the error
/// columns of soft constraints (two for an equality, `E = e⁺ - e⁻`; one for an
/// inequality, the violation). Rows: one per lowered constraint (container
/// rows included), then one row per level summing that level's errors.
/// A variant or a resize only changes bounds — of the container rows, of the
/// rows of constraints that are inactive (freed, their errors fixed at 0), of
/// the level rows — so every re-solve starts from the previous basis.
///
/// Its other parts are extensions, each in its own file: the optimal faces
/// that hold solved levels (OptimalFace.swift), minimal conflicts
/// (MinimalConflict.swift), the ambiguity analysis (AmbiguityAnalysis.swift)
/// and its basis check (BasisCheck.swift), and the crash basis of a large
/// first solve (CrashBasis.swift).
///
/// Every method must run on ``GLPKThread`` (GLPK's environment is thread-local).
final class LexicographicLP {
    struct RowInfo {
        var row: LoweredConstraint
        /// GLPK column indices of this row's error columns.
        var errorColumns: [Int32]
        var level: Int?

        /// The coefficient of `errorColumns[t]` in the row: an equality's
        /// `E - e⁺ + e⁻ = 0`, an upper bound's `E - e <= 0`, a lower bound's
        /// `E + e >= 0` (every LP built from the rows uses these). Why a
        /// function and not an array: an array per soft row was 5 more
        /// allocations in a small layout's load, which the gate counts.
        func errorCoefficient(_ t: Int) -> Double {
            switch row.relation {
            case .equal: return t == 0 ? -1 : 1
            case .lessThanOrEqual: return -1
            case .greaterThanOrEqual: return 1
            }
        }
    }

    /// GLPK's bounds for a row `expression ⋈ rhs` (type, lower, upper).
    static func bounds(_ relation: Relation, rhs: Double) -> (type: Int32, lower: Double, upper: Double) {
        switch relation {
        case .equal: return (GLP_FX, rhs, rhs)
        case .lessThanOrEqual: return (GLP_UP, 0, rhs)
        case .greaterThanOrEqual: return (GLP_LO, rhs, 0)
        }
    }

    /// Loads a matrix given as 1-based triplets (index 0 unused), each (i, j)
    /// once: the caller has checked every index and value.
    static func loadMatrix(_ problem: OpaquePointer, _ ia: [Int32], _ ja: [Int32], _ ar: [Double]) {
        let count = Int32(ia.count - 1)
        guard count > 0 else { return }
        ia.withUnsafeBufferPointer { iap in
            ja.withUnsafeBufferPointer { jap in
                ar.withUnsafeBufferPointer { arp in
                    glp_load_matrix(problem, count, iap.baseAddress, jap.baseAddress, arp.baseAddress)
                }
            }
        }
    }

    let viewNames: [String]
    let variableCount: Int
    /// Every constraint lowered (all traits on), in constraint order after
    /// the container rows; a variant's system is a selection of it.
    let universalSystem: LoweredSystem
    var rows: [RowInfo] = []
    /// Soft priorities, highest first.
    var levelPriorities: [Priority] = []
    /// Whether a lexicographic solve has run (later ones start warm).
    var hasSolved = false
    /// Problems with at least this many rows presolve their first solve.
    static let presolveRows = 2_000

    /// Whether the next solve from scratch should presolve: the first solve
    /// of a large problem (see ``solveLexicographically()``).
    var shouldPresolve: Bool { !hasSolved && rows.count >= Self.presolveRows }
    /// When a first solve starts from ``makeCrashPlan(levels:)``'s bases.
    var crashPolicy: GLPKLayoutSolver.CrashPolicy = .automatic
    /// Whether this solve should start from a crash plan: where GLPK would
    /// presolve (a large problem's first solve), unless the policy says otherwise.
    var shouldCrash: Bool {
        switch crashPolicy {
        case .automatic: return shouldPresolve
        case .always: return !hasSolved
        case .never: return false
        }
    }

    /// The bounds each lexicographic solve fixed to hold its levels' optimal
    /// faces, with the bounds they replaced (restored in reverse order by
    /// ``releaseLevelFixes()``).
    var levelFixes: [LevelFix] = []
    /// GLPK row index of each lowered row (1-based; row i of `rows` is i + 1).
    let problem: OpaquePointer
    var columnCount: Int32 = 0
    /// Row indices (into `rows`) of the container rows by component.
    var containerRow: [FrameComponent: Int] = [:]
    /// Whether each constraint (by layout index) is active.
    /// Constraint indices active now; nil before the first configure.
    var active: Set<Int>? = nil
    var size: ContainerSize

    /// Seconds spent inside `glp_simplex` (to measure the wrapper's own cost).
    var simplexSeconds = 0.0
    /// Seconds spent in blocks of GLPK calls other than `glp_simplex`
    /// (building the problem, the crash basis, bounds, reading values).
    var otherGLPKSeconds = 0.0

    /// Times a block of GLPK C calls into ``otherGLPKSeconds``.
    @inline(__always)
    func inGLPK<T>(_ body: () -> T) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { otherGLPKSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9 }
        return body()
    }
    var simplexCalls = 0
    /// Simplex iterations of the reduced LPs solved for crash bases.
    var crashIterations = 0
    /// Solves whose crash plan GLPK could not finish from (redone from its own start).
    var crashFallbacks = 0
    /// What the last solve's crash plan tells the ambiguity analysis (nil
    /// after a configure, or when the plan's last level needed pivots).
    var crashHints: CrashHints?

    /// The matrix as loaded (GLPK row, column, value), for the reduced costs
    /// of ``determinedByBasis(tolerance:)``.
    var entries: [(row: Int32, column: Int32, value: Double)] = []

    /// The direction this LP's rows were lowered for.
    let rightToLeft: Bool

    /// Builds the LP for every constraint of `layout`, in one layout direction.
    /// - Parameter rightToLeft: whether the leading-side attributes are
    ///   mirrored (the variants with the trait `rtl`); the LP serves only the
    ///   variants of that direction, because their rows differ.
    /// - Throws: ``GLPKError/invalidInput(_:)`` for anything GLPK would abort on.
    init(layout validated: ValidatedLayout, rightToLeft: Bool) throws(GLPKError) {
        self.rightToLeft = rightToLeft
        let layout = validated.layout
        let system = try Self.lowerEveryConstraint(of: validated, rightToLeft: rightToLeft)
        viewNames = system.viewNames
        variableCount = system.variableCount
        universalSystem = system
        size = layout.container

        let lowered = Self.withContainerHeightRow(system.constraints)
        // Levels, highest first.
        levelPriorities = Array(Set(lowered.filter { !$0.priority.isRequired }.map(\.priority))).sorted(by: >)
        (rows, containerRow, columnCount) = Self.rowsWithErrorColumns(lowered, levelPriorities: levelPriorities,
                                                                      variableCount: variableCount)
        try Self.validateForGLPK(rows, levelCount: levelPriorities.count, columnCount: columnCount, variableCount: variableCount)

        let glpkStart = DispatchTime.now().uptimeNanoseconds
        let p = try Self.createProblem(rowCount: rows.count, columnCount: columnCount, variableCount: variableCount)
        problem = p
        entries = Self.loadRows(rows, into: p)
        glp_adv_basis(p, 0)
        otherGLPKSeconds += Double(DispatchTime.now().uptimeNanoseconds - glpkStart) * 1e-9
    }

    /// Every constraint of `validated` lowered, in one direction.
    /// - Throws: ``GLPKError/invalidInput(_:)`` when lowering fails.
    private static func lowerEveryConstraint(of validated: ValidatedLayout, rightToLeft: Bool) throws(GLPKError) -> LoweredSystem {
        // Lower with every trait so every constraint gets a row; activity is bounds.
        // Why `rtl` is set apart: it changes rows, not which rows are on.
        let system: LoweredSystem
        do { system = try validated.everyTraitOn(rightToLeft: rightToLeft).lowered(variant: nil) } catch { throw .invalidInput("\(error)") }
        return system
    }

    /// `lowered`, with a container height row appended when it has none (the
    /// row ``applySize()`` bounds or frees with the container's height).
    private static func withContainerHeightRow(_ lowered: [LoweredConstraint]) -> [LoweredConstraint] {
        var lowered = lowered
        if !lowered.contains(where: { $0.origin == .container(.height) }) {
            var e = LinearExpression()
            e.add(1, FrameVariable(view: 0, component: .height))
            lowered.append(LoweredConstraint(expression: e, relation: .equal, priority: .required, origin: .container(.height)))
        }
        return lowered
    }

    /// The LP's rows: each lowered row with its error columns (numbered after
    /// the `variableCount` frame columns, in row order) and its level, where
    /// the container rows are, and the number of columns.
    private static func rowsWithErrorColumns(_ lowered: [LoweredConstraint], levelPriorities: [Priority], variableCount: Int)
        -> (rows: [RowInfo], containerRow: [FrameComponent: Int], columnCount: Int32)
    {
        var rows: [RowInfo] = []
        var containerRow: [FrameComponent: Int] = [:]
        var column = Int32(variableCount)
        for row in lowered {
            var info = RowInfo(row: row, errorColumns: [], level: nil)
            if !row.priority.isRequired {
                let count: Int32 = row.relation == .equal ? 2 : 1
                info.errorColumns = (1...count).map { column + $0 }
                column += count
                info.level = levelPriorities.firstIndex(of: row.priority)
            }
            if case .container(let component) = row.origin { containerRow[component] = rows.count }
            rows.append(info)
        }
        return (rows, containerRow, column)
    }

    /// Validates everything GLPK would abort on, before the first call.
    /// - Throws: ``GLPKError/invalidInput(_:)`` for the first problem found.
    private static func validateForGLPK(_ rows: [RowInfo], levelCount: Int, columnCount: Int32, variableCount: Int) throws(GLPKError) {
        guard variableCount > 0, !rows.isEmpty else { throw .invalidInput("no rows or columns") }
        guard rows.count + levelCount < Int(Int32.max / 2), columnCount < Int32.max / 2 else {
            throw .invalidInput("problem too large for GLPK's 32-bit indices")
        }
        for info in rows {
            // Why a running maximum rather than a set of seen indices: a
            // lowered expression keeps its terms sorted by variable, so a
            // repeat (which glp_set_mat_row aborts on) shows as a step that
            // does not increase, and no row allocates.
            var previous = -1
            for term in info.row.expression.terms {
                guard term.coefficient.isFinite else { throw .invalidInput("non-finite coefficient") }
                let index = term.variable.index
                guard index > previous, index < variableCount else {
                    throw .invalidInput("variable index out of range, repeated or unsorted in a row")
                }
                previous = index
            }
            guard info.row.expression.constant.isFinite else { throw .invalidInput("non-finite constant") }
        }
    }

    /// A new GLPK problem that minimises, with `rowCount` rows and
    /// `columnCount` columns: the `variableCount` frame columns free, the
    /// error columns after them at least 0.
    /// - Throws: ``GLPKError/invalidInput(_:)`` when GLPK cannot create it.
    private static func createProblem(rowCount: Int, columnCount: Int32, variableCount: Int) throws(GLPKError) -> OpaquePointer {
        guard let p = glp_create_prob() else { throw .invalidInput("glp_create_prob failed") }
        glp_set_obj_dir(p, GLP_MIN)
        _ = glp_add_rows(p, Int32(rowCount))
        _ = glp_add_cols(p, columnCount)
        for j in 1...Int(variableCount) { glp_set_col_bnds(p, Int32(j), GLP_FR, 0, 0) }
        if columnCount > Int32(variableCount) {
            for j in (Int32(variableCount) + 1)...columnCount { glp_set_col_bnds(p, j, GLP_LO, 0, 0) }
        }
        return p
    }

    /// Loads the matrix of `rows` into `p`: row `r` is GLPK row `r + 1`, its
    /// terms then its error columns.
    /// - Returns: the entries as loaded (for ``entries``).
    private static func loadRows(_ rows: [RowInfo], into p: OpaquePointer) -> [(row: Int32, column: Int32, value: Double)] {
        // The matrix, 1-based, each (i, j) once.
        var ia: [Int32] = [0], ja: [Int32] = [0], ar: [Double] = [0]
        for (r, info) in rows.enumerated() {
            let i = Int32(r + 1)
            for term in info.row.expression.terms {
                ia.append(i); ja.append(Int32(term.variable.index + 1)); ar.append(term.coefficient)
            }
            for (t, j) in info.errorColumns.enumerated() {
                ia.append(i); ja.append(j); ar.append(info.errorCoefficient(t))
            }
        }
        let entries: [(row: Int32, column: Int32, value: Double)] = (1..<ia.count).map { (ia[$0], ja[$0], ar[$0]) }
        Self.loadMatrix(p, ia, ja, ar)
        return entries
    }

    deinit {
        let p = SendablePointer(pointer: problem)
        // Nobody needs to wait for the free; jobs run in order, so it still
        // happens before any later job that could reuse the memory.
        GLPKThread.shared.async { glp_delete_prob(p.pointer) }
    }

    // MARK: Bounds

    /// Sets the bounds of lowered row `r` from its relation and constant, or frees it.
    func setRowBounds(_ r: Int, enabled: Bool) {
        let info = rows[r]
        let i = Int32(r + 1)
        let rhs = -info.row.expression.constant
        if !enabled {
            glp_set_row_bnds(problem, i, GLP_FR, 0, 0)
            for j in info.errorColumns { glp_set_col_bnds(problem, j, GLP_FX, 0, 0) }
            return
        }
        let b = Self.bounds(info.row.relation, rhs: rhs)
        glp_set_row_bnds(problem, i, b.type, b.lower, b.upper)
        for j in info.errorColumns { glp_set_col_bnds(problem, j, GLP_LO, 0, 0) }
    }

    /// Activates the constraints of a variant and sets the container size.
    func configure(active newActive: Set<Int>, size newSize: ContainerSize) throws(GLPKError) {
        guard newSize.width.isFinite, newSize.height.map(\.isFinite) ?? true else {
            throw .invalidInput("non-finite container size")
        }
        inGLPK { releaseLevelFixes() }
        crashHints = nil
        let changed = newActive != active
        active = newActive
        size = newSize
        inGLPK {
            // Why only on a change: a resize keeps the active set, and resetting
            // every row's bounds would cost O(rows) GLPK calls per resize.
            if changed {
                for r in rows.indices {
                    switch rows[r].row.origin {
                    case .constraint(let index): setRowBounds(r, enabled: newActive.contains(index))
                    // Content-size rows belong to their views: on in every variant.
                    case .content: setRowBounds(r, enabled: true)
                    case .container: break
                    }
                }
            }
            applySize()
        }
    }

    /// Sets the container rows' bounds for the current size.
    func applySize() {
        releaseLevelFixes()
        for (component, r) in containerRow {
            var row = rows[r].row
            switch component {
            case .x, .y: row.expression.constant = 0
            case .width: row.expression.constant = -size.width
            case .height: row.expression.constant = -(size.height ?? 0)
            }
            rows[r].row = row
            setRowBounds(r, enabled: component != .height || size.height != nil)
            if component == .height && size.height == nil {
                glp_set_row_bnds(problem, Int32(r + 1), GLP_FR, 0, 0)
            }
        }
    }

    // MARK: Solving

    /// One `glp_simplex` call from the current basis; on a basis GLPK cannot
    /// factorise, retries once from an advanced (crash) basis.
    ///
    /// - Parameter presolve: run GLPK's presolver first (it reduces the
    ///   problem and restores an optimal basis of the original one; the
    ///   current basis is not used). If it finds the problem infeasible it
    ///   returns no solution at all, so the call is repeated without it to get
    ///   the status the caller reads.
    func simplex(dual: Bool, presolve: Bool = false) throws(GLPKError) {
        var parameters = glp_smcp()
        glp_init_smcp(&parameters)
        parameters.msg_lev = GLP_MSG_OFF
        parameters.meth = dual ? GLP_DUALP : GLP_PRIMAL
        parameters.presolve = GLP_OFF  // keep the basis for warm starts
        // Why limits: on badly scaled rows (multipliers 1e-6 and 1e6 next to
        // constants of 1e9) GLPK's simplex can cycle for ever, and the
        // reference must answer or say it cannot. A simplex needs a few times
        // as many iterations as rows; 50x rows + 10,000 is far beyond that.
        let size = Int(glp_get_num_rows(problem)) + Int(glp_get_num_cols(problem))
        parameters.it_lim = Int32(clamping: 10_000 + 50 * size)
        parameters.tm_lim = Int32(clamping: Int(LexicographicLP.simplexTimeLimit * 1000))
        let start = DispatchTime.now().uptimeNanoseconds
        var code: Int32
        if presolve {
            parameters.presolve = GLP_ON
            code = glp_simplex(problem, &parameters)
            parameters.presolve = GLP_OFF
            // The presolver leaves no basis when it stops: ask again without it.
            if code != 0 {
                glp_adv_basis(problem, 0)
                code = glp_simplex(problem, &parameters)
            }
        } else {
            code = glp_simplex(problem, &parameters)
        }
        if code == GLP_EBADB || code == GLP_ESING || code == GLP_ECOND {
            glp_adv_basis(problem, 0)
            code = glp_simplex(problem, &parameters)
        }
        if code == GLP_EITLIM {
            // Cycling: scale the problem (GLPK's automatic scaling), start
            // from a crash basis and use the other method once.
            glp_scale_prob(problem, GLP_SF_AUTO)
            glp_adv_basis(problem, 0)
            parameters.meth = dual ? GLP_PRIMAL : GLP_DUALP
            code = glp_simplex(problem, &parameters)
        }
        simplexSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
        simplexCalls += 1
        guard code == 0 else { throw .simplexFailed(code: code, meaning: GLPKError.meaning(ofSimplexCode: code)) }
    }

    /// Seconds one `glp_simplex` call may take before it is abandoned as
    /// numerical trouble.
    static let simplexTimeLimit = 30.0

    /// Columns with a non-zero objective coefficient now.
    var objectiveColumns: [Int32] = []

    /// Sets the objective to `Σ coefficients`, all other coefficients 0.
    /// Why track the non-zero columns: resetting every column costs O(columns)
    /// per level and per ambiguity LP, more than the warm re-solve itself.
    func setObjective(_ coefficients: [(Int32, Double)]) {
        for j in objectiveColumns { glp_set_obj_coef(problem, j, 0) }
        for (j, c) in coefficients { glp_set_obj_coef(problem, j, c) }
        objectiveColumns = coefficients.map(\.0)
    }

    struct LevelResult {
        var priority: Priority
        var optimum: Double
        var iterations: Int
    }

    /// The lexicographic solve: for each level, highest first, minimise its
    /// error sum, then fix the level's optimal face by bounds
    /// (``fixOptimalFace()``) before the next. A large problem's first solve
    /// starts each level from the basis ``makeCrashPlan(levels:)`` proposes,
    /// and is redone from GLPK's own start if GLPK cannot finish from it.
    ///
    /// - Returns: nil if the required rows are infeasible, else each level's optimum.
    /// - Throws: ``GLPKError`` when GLPK fails from its own start too.
    /// - Complexity: with a plan, the plan's cost plus one factorisation per
    ///   level (no pivots when the lifted bases are optimal, as on every
    ///   generated family); without, GLPK's simplex from its own start.
    func solveLexicographically() throws(GLPKError) -> [LevelResult]? {
        let activeLevels = levelPriorities.indices.filter { k in
            rows.contains { $0.level == k && isActive($0) }
        }
        // Why a plan only where GLPK would presolve (by default): see makeCrashPlan.
        if shouldCrash, let plan = makeCrashPlan(levels: activeLevels) {
            // The basis the solve would have started from without a plan, to
            // redo it from exactly there if the plan fails.
            let start = inGLPK { Basis(of: problem) }
            // Why any failure falls back: the plan only proposes bases, and a
            // lifted basis GLPK cannot work from (a primal simplex that stops
            // on a hostile layout's rows of 1e9 next to 1e-6), or a verdict
            // the reduced LPs contradict (they were feasible; an infeasible
            // full problem is then confirmed from GLPK's own start), must not
            // become the reference's answer.
            if let results = try? solveLevels(activeLevels, plan: plan) {
                // Hints only for the lifted basis itself: the last level's
                // full simplex found it optimal without a pivot.
                if results.last.map({ $0.iterations == 0 }) ?? true {
                    crashHints = inGLPK { CrashHints(basis: Basis(of: problem), pins: plan.pins) }
                }
                return results
            }
            crashFallbacks += 1
            // The start the problem had before the plan, so the redone solve
            // is the one without a plan, pivot for pivot (a fresh crash basis
            // would not be: GLPK's depends on the bounds of the moment).
            inGLPK {
                releaseLevelFixes()
                start.install(into: problem)
            }
            hasSolved = false
        }
        return try solveLevels(activeLevels, plan: nil)
    }

    /// The levels' solves of ``solveLexicographically()``, each from the
    /// plan's basis for it if there is a plan.
    ///
    /// - Returns: nil if the required rows are infeasible, else each level's optimum.
    /// - Throws: ``GLPKError`` when GLPK fails or reports a status that is no
    ///   answer; with a plan, also ``GLPKError/unexpectedStatus(_:)`` where the
    ///   full problem is infeasible (the plan's reduced LPs were not).
    private func solveLevels(_ activeLevels: [Int], plan: CrashPlan?) throws(GLPKError) -> [LevelResult]? {
        inGLPK { releaseLevelFixes() }
        if activeLevels.isEmpty {
            setObjective([])
            if let plan { inGLPK { plan.bases[0].install(into: problem) } }
            try simplex(dual: true, presolve: shouldPresolve && plan == nil)
            hasSolved = true
            if plan != nil && !feasible() { throw .unexpectedStatus("infeasible after a feasible crash") }
            return feasible() ? [] : nil
        }
        var results: [LevelResult] = []
        var first = true
        for (position, k) in activeLevels.enumerated() {
            let before = iterationCount()
            setObjective(rows.filter { $0.level == k && isActive($0) }.flatMap { $0.errorColumns.map { ($0, 1.0) } })
            // The first solve after bound changes starts from a basis that may be
            // primal infeasible: dual simplex. Later levels only change the
            // objective (the point stays feasible): primal simplex.
            // Why presolve a large problem's first solve (when there is no
            // plan): from a crash basis the dual simplex needs about one pivot
            // per row, each touching O(rows) (chains of views make the basis
            // inverse dense): quadratic. GLPK's presolver removes the fixed
            // columns and singleton rows first, so fewer pivots remain (evidence:
            // docs/measurements.md#m-glpk-costs); later levels start warm from
            // the restored basis. Not on a small
            // problem (a few hundred pivots; the presolver's own ~70
            // allocations cost more) nor on a re-solve (a resize or variant
            // switch starts from the last optimal basis, which presolving
            // would throw away).
            if let plan { inGLPK { plan.bases[position].install(into: problem) } }
            try simplex(dual: first, presolve: first && shouldPresolve && plan == nil)
            hasSolved = true
            if first && !feasible() {
                if plan != nil { throw .unexpectedStatus("infeasible after a feasible crash") }
                return nil
            }
            first = false
            let status = glp_get_status(problem)
            guard status == GLP_OPT else { throw .unexpectedStatus(GLPKError.name(ofStatus: status)) }
            let optimum = max(0, glp_get_obj_val(problem))
            inGLPK { fixOptimalFace() }
            results.append(LevelResult(priority: levelPriorities[k], optimum: optimum,
                                       iterations: iterationCount() - before))
        }
        return results
    }

    /// One LP with every level's errors weighted (kiwi's approximation of
    /// priorities, e.g. 1e6 / 1e3 / 1): for showing where it differs from the
    /// lexicographic answer. Levels without a weight count 1.
    func solveWeighted(_ weights: [Priority: Double]) throws(GLPKError) -> Bool {
        inGLPK { releaseLevelFixes() }
        var objective: [(Int32, Double)] = []
        for info in rows where isActive(info) {
            guard let level = info.level else { continue }
            let w = weights[levelPriorities[level]] ?? 1
            guard w.isFinite else { throw .invalidInput("non-finite weight") }
            objective += info.errorColumns.map { ($0, w) }
        }
        setObjective(objective)
        try simplex(dual: true)
        return feasible()
    }

    /// The lowered system of a variant: the rows of the constraints in
    /// `active` and the container rows of `size`, in the order of
    /// `Layout.lowered(variant:)`. Why select rather than lower again: the
    /// rows are the same values (lowering does not depend on the variant
    /// beyond which constraints are on and the container's size), and
    /// lowering again was a second pass over the layout on every load.
    ///
    /// - Complexity: O(*r*) for *r* rows.
    func system(variant name: String, active: Set<Int>, size: ContainerSize) -> LoweredSystem {
        var system = universalSystem
        system.variant = name
        system.constraints = universalSystem.constraints.filter { row in
            if case .constraint(let index) = row.origin { return active.contains(index) }
            return true
        }
        return system.resized(to: size)
    }

    func isActive(_ info: RowInfo) -> Bool {
        switch info.row.origin {
        case .constraint(let index): return active?.contains(index) ?? false
        case .container(let c): return c != .height || size.height != nil
        case .content: return active != nil
        }
    }

    /// Simplex iterations spent on this problem: GLPK's counter, plus the
    /// reduced LPs' of ``makeCrashPlan(levels:)``.
    func iterationCount() -> Int { Int(glp_get_it_cnt(problem)) + crashIterations }

    func feasible() -> Bool {
        let status = glp_get_prim_stat(problem)
        return status == GLP_FEAS
    }

    /// The frame variables' values of the current solution.
    func values() -> [Double] {
        inGLPK { (0..<variableCount).map { glp_get_col_prim(problem, Int32($0 + 1)) } }
    }
}

/// An `OpaquePointer` handed to the GLPK thread (only that thread dereferences it).
struct SendablePointer: @unchecked Sendable {
    let pointer: OpaquePointer
}
