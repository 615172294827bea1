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

    /// A frame component is *determined* when its range under the fixed levels
    /// is within this: 100 times GLPK's feasibility tolerance (what the fixed
    /// levels may wiggle by) and 100 times below the 1e-3 of `expect` lines.
    static let ambiguityTolerance = Tolerance.ambiguity

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
        // Lower with every trait so every constraint gets a row; activity is bounds.
        // Why `rtl` is set apart: it changes rows, not which rows are on.
        let system: LoweredSystem
        do { system = try validated.everyTraitOn(rightToLeft: rightToLeft).lowered(variant: nil) } catch { throw .invalidInput("\(error)") }
        viewNames = system.viewNames
        variableCount = system.variableCount
        universalSystem = system
        size = layout.container

        var lowered = system.constraints
        if !lowered.contains(where: { $0.origin == .container(.height) }) {
            var e = LinearExpression()
            e.add(1, FrameVariable(view: 0, component: .height))
            lowered.append(LoweredConstraint(expression: e, relation: .equal, priority: .required, origin: .container(.height)))
        }

        // Levels, highest first.
        levelPriorities = Array(Set(lowered.filter { !$0.priority.isRequired }.map(\.priority))).sorted(by: >)
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
        columnCount = column

        // Validate everything GLPK would abort on, before the first call.
        guard variableCount > 0, !rows.isEmpty else { throw .invalidInput("no rows or columns") }
        guard rows.count + levelPriorities.count < Int(Int32.max / 2), columnCount < Int32.max / 2 else {
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

        let glpkStart = DispatchTime.now().uptimeNanoseconds
        guard let p = glp_create_prob() else { throw .invalidInput("glp_create_prob failed") }
        problem = p
        glp_set_obj_dir(p, GLP_MIN)
        _ = glp_add_rows(p, Int32(rows.count))
        _ = glp_add_cols(p, columnCount)
        for j in 1...Int(variableCount) { glp_set_col_bnds(p, Int32(j), GLP_FR, 0, 0) }
        if columnCount > Int32(variableCount) {
            for j in (Int32(variableCount) + 1)...columnCount { glp_set_col_bnds(p, j, GLP_LO, 0, 0) }
        }

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
        entries = (1..<ia.count).map { (ia[$0], ja[$0], ar[$0]) }
        Self.loadMatrix(p, ia, ja, ar)
        glp_adv_basis(p, 0)
        otherGLPKSeconds += Double(DispatchTime.now().uptimeNanoseconds - glpkStart) * 1e-9
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

    /// One bound a level's optimal face fixed: a row's or a column's.
    struct LevelFix {
        var isRow: Bool
        var index: Int32
        var type: Int32
        var lower: Double
        var upper: Double
    }

    /// Fixes the optimal face of the level just solved, by bounds.
    ///
    /// Why bounds and not a row `L_k <= optimum`: by complementary slackness
    /// with the optimal basis's reduced costs `d`, a feasible point is optimal
    /// for the level exactly when every nonbasic with `d_j > 0` stays at its
    /// lower bound and every one with `d_j < 0` at its upper bound (the
    /// level's error sum is `optimum + Σ d_j·Δ_j`). Fixing those bounds keeps
    /// the face with no slack and no dense row: the level rows (one entry per
    /// error column of the level) made every later basis factorisation and
    /// pricing pass touch thousands of entries, and their slack (10⁻⁹ of an
    /// optimum in the hundreds of thousands) let the basis shortcut see a
    /// thickened face and leave a third of the frame variables to LPs
    /// (self-sizing rows, R = 2,200: 7,200 LPs, 50 s). The current vertex
    /// stays feasible, so the next level starts warm. Reduced costs within
    /// GLPK's dual tolerance count as zero (the move they allow changes the
    /// level by at most that much per unit), as in the basis shortcut.
    ///
    /// - Complexity: O(*m* + *n*) GLPK calls.
    func fixOptimalFace() {
        // Why reserve once: growing the list by doubling was an allocation
        // per power of two on every solve; it keeps its capacity after that.
        if levelFixes.capacity == 0 {
            levelFixes.reserveCapacity(Int(glp_get_num_rows(problem)) + Int(glp_get_num_cols(problem)))
        }
        Self.fixOptimalFace(of: problem, recording: &levelFixes)
    }

    /// The rule of ``fixOptimalFace()`` on any problem with an optimal basis
    /// (the crash's reduced LPs use it too, so both fix the same faces).
    ///
    /// - Complexity: O(*m* + *n*) GLPK calls.
    static func fixOptimalFace(of problem: OpaquePointer, recording levelFixes: inout [LevelFix]) {
        let tol = Self.reducedCostTolerance
        let m = glp_get_num_rows(problem), n = glp_get_num_cols(problem)
        // Rows and columns alike: GLPK numbers each kind from 1.
        for isRow in [true, false] {
            let count = isRow ? m : n
            guard count > 0 else { continue }
            for k in 1...count {
                let status = isRow ? glp_get_row_stat(problem, k) : glp_get_col_stat(problem, k)
                guard status == GLP_NL || status == GLP_NU else { continue }
                let d = isRow ? glp_get_row_dual(problem, k) : glp_get_col_dual(problem, k)
                guard status == GLP_NL ? d > tol : d < -tol else { continue }
                let fix = isRow
                    ? LevelFix(isRow: true, index: k, type: glp_get_row_type(problem, k), lower: glp_get_row_lb(problem, k),
                               upper: glp_get_row_ub(problem, k))
                    : LevelFix(isRow: false, index: k, type: glp_get_col_type(problem, k), lower: glp_get_col_lb(problem, k),
                               upper: glp_get_col_ub(problem, k))
                levelFixes.append(fix)
                let at = status == GLP_NL ? fix.lower : fix.upper
                if isRow { glp_set_row_bnds(problem, k, GLP_FX, at, at) } else { glp_set_col_bnds(problem, k, GLP_FX, at, at) }
            }
        }
    }

    /// Restores the bounds ``fixOptimalFace()`` fixed, newest first (a bound
    /// is fixed at most once per solve, so the order only matters for
    /// safety). Every entry point that changes bounds or objectives for a
    /// new question calls this first.
    ///
    /// - Complexity: O(fixes) GLPK calls.
    func releaseLevelFixes() {
        for fix in levelFixes.reversed() {
            if fix.isRow {
                glp_set_row_bnds(problem, fix.index, fix.type, fix.lower, fix.upper)
            } else {
                glp_set_col_bnds(problem, fix.index, fix.type, fix.lower, fix.upper)
            }
        }
        levelFixes.removeAll(keepingCapacity: true)
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
            // columns and singleton rows first (self-sizing rows, R = 1,000:
            // 9,004 pivots and 2.2 s without it, 4,000 and 0.7 s with it);
            // later levels start warm from the restored basis. Not on a small
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

    // MARK: Conflicts

    /// A minimal set of active required rows that cannot hold together
    /// (indices into `rows`), by a deletion filter: free each row in turn; if
    /// the rest is still infeasible it is not needed, otherwise restore it.
    func minimalConflict() throws(GLPKError) -> [Int] {
        inGLPK { releaseLevelFixes() }
        setObjective([])
        let required = rows.indices.filter { rows[$0].row.priority.isRequired && isActive(rows[$0]) }
        var kept: [Int] = []
        for r in required {
            glp_set_row_bnds(problem, Int32(r + 1), GLP_FR, 0, 0)
            try simplex(dual: true)
            if feasible() {
                setRowBounds(r, enabled: true)  // needed: restore it
                kept.append(r)
            }
        }
        for r in required { setRowBounds(r, enabled: true) }
        applySize()
        return kept
    }

    // MARK: Ambiguity

    struct Range {
        var variable: Int
        var minimum: Double
        var maximum: Double
    }

    /// The frame variables whose value is not unique once every level is
    /// fixed, with their ranges if `ranges` (±infinity when unbounded).
    ///
    /// Call right after ``solveLexicographically()``. For each variable,
    /// minimise and maximise it from the current basis. Why it is fast: every
    /// LP's vertex is compared with the reference solution, and any variable
    /// that differs there is proven free without LPs of its own (unless its
    /// range is asked for).
    ///
    /// - Parameter basisShortcut: first decide from the final basis which
    ///   variables are constant on the face (``determinedByBasis(tolerance:)``),
    ///   and give LPs only to the rest. Off, every constrained variable gets
    ///   its LPs (the reference method the shortcut is checked against).
    /// - Complexity: with the shortcut, one tableau row per basic frame
    ///   variable (O(rows + nonzeros) each) plus two warm LPs per undecided
    ///   variable; without it, two LPs per constrained variable.
    func ambiguity(ranges: Bool, tolerance: Tolerance = LexicographicLP.ambiguityTolerance,
                   basisShortcut: Bool = true) throws(GLPKError) -> [Range]
    {
        let reference = values()
        var free = [Bool](repeating: false, count: variableCount)
        var bounds = [(Double, Double)?](repeating: nil, count: variableCount)
        // Why first: a variable in no active row is unconstrained, so free and
        // unbounded both ways without an LP (5,000 declared views and no
        // constraints took 20,000 LP pairs, 33 s; now none).
        var constrained = [Bool](repeating: false, count: variableCount)
        for info in rows where isActive(info) {
            for term in info.row.expression.terms where term.variable.index < variableCount { constrained[term.variable.index] = true }
        }
        for k in 0..<variableCount where !constrained[k] {
            free[k] = true
            bounds[k] = (-.infinity, .infinity)
        }
        // Why before the LPs: they change the objective and the basis.
        let decided = basisShortcut ? try determinedByBasis(tolerance: tolerance) : []
        func observe() {
            let v = values()
            for k in 0..<variableCount where !free[k] && !tolerance.isClose(v[k], reference[k]) { free[k] = true }
        }
        for k in 0..<variableCount {
            if free[k] && (!ranges || !constrained[k]) { continue }
            if k < decided.count && decided[k] { continue }
            var extremes: [Double] = []
            for direction in [1.0, -1.0] {
                setObjective([(Int32(k + 1), direction)])
                try simplex(dual: false)
                let status = glp_get_status(problem)
                if status == GLP_UNBND {
                    extremes.append(-direction * .infinity)
                } else if status == GLP_OPT {
                    extremes.append(glp_get_col_prim(problem, Int32(k + 1)))
                    observe()
                } else {
                    throw .unexpectedStatus(GLPKError.name(ofStatus: status))
                }
            }
            bounds[k] = (extremes[0], extremes[1])
            if !tolerance.isClose(extremes[0], extremes[1]) { free[k] = true }
        }
        let found = (0..<variableCount).filter { free[$0] }.map { k in
            Range(variable: k, minimum: bounds[k]?.0 ?? .nan, maximum: bounds[k]?.1 ?? .nan)
        }
        return found.sorted { $0.variable < $1.variable }
    }
}

extension LexicographicLP {
    /// GLPK's dual feasibility tolerance: a reduced cost within it is zero.
    static let reducedCostTolerance = 1e-7
    /// Tableau entries this small, relative to their column's largest, are
    /// FTRAN's rounding of an exact zero (GLPK pivots on nothing below 1e-10
    /// relative either, `tol_piv`).
    static let tableauRoundoff = 1e-9

    /// Which frame variables the final basis alone proves constant on the
    /// optimal face (true), with no LP; false means undecided, not free.
    ///
    /// The face is the set of lexicographic optima: the required rows, and
    /// every active level's error sum `L_k` at its optimum. Take the final
    /// basis and, for each level, the reduced costs `d⁽ᵏ⁾` of `L_k` in it
    /// (one BTRAN per level). With `Δ_j ≥ 0` the move of nonbasic `j` away
    /// from its bound and `v` the reduced cost signed by that direction,
    /// `L_k(x) - L_k(x*) = Σ v⁽ᵏ⁾_j·Δ_j`. If every nonbasic's vector
    /// `(v⁽¹⁾_j, v⁽²⁾_j, …)` is zero or has a positive first non-zero entry
    /// (lexicographic dual feasibility; otherwise nothing is decided), then
    /// by induction over the levels, highest first, a nonbasic with a
    /// non-zero vector stays at its bound on the face (the argument of the
    /// native solver's analysis, Cassowary/Ambiguity.swift). So do fixed
    /// nonbasics (equality rows, an inactive row's error columns) and a fixed
    /// level's row (its level is at its optimum). Only the others, *movable*
    /// (zero cost at every level, or free), can move anything: their
    /// columns of the simplex tableau (one FTRAN each) say which basic
    /// variables they move. A movable nonbasic all of whose moves push some
    /// basic variable past a bound it sits on (a degenerate vertex: a
    /// hugging row beside its compression row) is pinned, to within that
    /// variable's distance to the bound, propagated to a fixpoint (the
    /// native `pinnedZeroCostColumns`). A frame variable moves by at most
    /// `Σ |α_vj|·reach_j`; under half the ambiguity tolerance (twice: both
    /// directions) it is determined.
    ///
    /// Why this gives the per-variable LPs' answer: they range over the face
    /// widened by each level's slack (10⁻⁹ of its optimum), which their
    /// tolerance (ten times the slacks) is there to absorb; the tests
    /// compare both methods on every corpus file and thousands of random
    /// layouts (the same lists; on hostile layouts the LPs sometimes see a
    /// slack-thickened component the exact face does not have, and z3 sides
    /// with the shortcut). Reduced costs within GLPK's dual tolerance count
    /// as zero, as they do in the LPs.
    ///
    /// - Throws: ``GLPKError`` from the warm re-solve that refreshes the basis.
    /// - Complexity: O(*K*·(*m* + *nnz*)) for *K* levels, plus
    ///   O(*m* + *nnz*) per movable nonbasic (its tableau column) and the
    ///   fixpoint over those columns' entries.
    func determinedByBasis(tolerance: Tolerance) throws(GLPKError) -> [Bool] {
        let undecided = [Bool](repeating: false, count: variableCount)
        // A warm re-solve with the last level's objective (still set): 0
        // pivots when the basis is optimal, and a fresh factorization.
        try simplex(dual: false)
        guard glp_get_status(problem) == GLP_OPT, glp_bf_exists(problem) != 0 else { return undecided }
        let m = Int(glp_get_num_rows(problem)), n = Int(glp_get_num_cols(problem))
        guard m > 0, n > 0 else { return undecided }
        // The active levels, highest first, with each one's error columns.
        var levelCost: [[Double]] = []  // per level: cost of each GLPK column (1-based)
        for k in levelPriorities.indices {
            var cost = [Double](repeating: 0, count: n + 1)
            var any = false
            for info in rows where info.level == k && isActive(info) {
                for j in info.errorColumns where Int(j) <= n { cost[Int(j)] = 1; any = true }
            }
            if any { levelCost.append(cost) }
        }
        // Why rounds: at a degenerate vertex an optimal basis can still have
        // a nonbasic whose reduced cost at an earlier level is negative (its
        // improving edge has length 0), and the argument below then settles
        // nothing (self-sizing rows, R = 1,500: every frame variable went to
        // the LPs, over ten minutes). A warm primal re-solve with that level's
        // objective pivots, degenerately (every level row stays bounded), to a
        // basis that is dual feasible for it; the check starts again on that
        // basis, a few times at most.
        var rounds = 0
        while true {
        let hint = crashHints.flatMap { $0.basis.matches(problem) ? $0.pins : nil }
        let costs = levelCost, matrix = entries, frames = variableCount
        let outcome: BasisCheck = inGLPK {
            Self.checkBasis(problem, levelCost: costs, entries: matrix, frameCount: frames, tolerance: tolerance, hint: hint)
        }
        switch outcome {
        case .decided(let decided, _, _): return decided
        case .giveUp: return undecided
        case .improving(let level):
            // Leave the rest to the LPs if the rounds do not settle it.
            guard rounds < levelCost.count + 2 else { return undecided }
            rounds += 1
            var objective: [(Int32, Double)] = []
            for j in 1...n where levelCost[level][j] != 0 { objective.append((Int32(j), levelCost[level][j])) }
            setObjective(objective)
            try simplex(dual: false)
            guard glp_get_status(problem) == GLP_OPT, glp_bf_exists(problem) != 0 else { return undecided }
        }
        }
    }

    /// One look at `problem`'s current (optimal, factorised) basis: the
    /// argument of ``determinedByBasis(tolerance:)``, on any problem whose
    /// first `frameCount` columns are the frame variables and whose level
    /// costs are `levelCost` (per level, each column's cost, 1-based). The
    /// crash's batches run it too, to pin their columns cheaply.
    ///
    /// - Parameters:
    ///   - entries: the matrix as loaded (row, column, value), for the reduced costs.
    ///   - hint: what the crash's batches found of each variable (GLPK's k:
    ///     rows 1...m, columns m+1...m+n); the columns they pinned keep reach
    ///     0 and get no tableau column. Ignored if a variable movable here
    ///     was settled in its batch (the two disagree on the face; a pin
    ///     there could rest on a column that moves here).
    /// - Complexity: O(*K*·(*m* + *nnz*)) for *K* levels, plus O(*m* + *nnz*)
    ///   per movable nonbasic that is not pinned (its tableau column) and the
    ///   fixpoint over those columns' entries.
    static func checkBasis(_ problem: OpaquePointer, levelCost: [[Double]], entries: [(row: Int32, column: Int32, value: Double)],
                           frameCount: Int, tolerance: Tolerance, hint: [CrashPlan.Pin]?) -> BasisCheck
    {
        let m = Int(glp_get_num_rows(problem)), n = Int(glp_get_num_cols(problem))
        guard m > 0, n > 0 else { return .giveUp }
        let tol = Self.reducedCostTolerance
        // Status of every variable (GLPK's k: rows 1...m, columns m+1...m+n).
        var status = [Int32](repeating: GLP_BS, count: m + n + 1)
        for i in 1...m { status[i] = glp_get_row_stat(problem, Int32(i)) }
        for j in 1...n { status[m + j] = glp_get_col_stat(problem, Int32(j)) }
        var head = [Int](repeating: 0, count: m + 1)
        for i in 1...m { head[i] = Int(glp_get_bhead(problem, Int32(i))) }
        // Settled: basic, fixed, or bounded at an earlier level.
        var settled = [Bool](repeating: false, count: m + n + 1)
        for k in 1...(m + n) where status[k] == GLP_BS || status[k] == GLP_NS { settled[k] = true }
        var pi = [Double](repeating: 0, count: m + 1)
        var d = [Double](repeating: 0, count: m + n + 1)
        for (level, cost) in levelCost.enumerated() {
            // π = B⁻ᵀ c_B; rows are r - A x = 0, so d(row i) = -π_i and
            // d(column j) = c_j + Σ_i π_i a_ij.
            for i in 1...m { let b = head[i]; pi[i] = b > m ? cost[b - m] : 0 }
            glp_btran(problem, &pi)
            for i in 1...m { d[i] = -pi[i] }
            for j in 1...n { d[m + j] = cost[j] }
            for e in entries { d[m + Int(e.column)] += pi[Int(e.row)] * e.value }
            for k in 1...(m + n) where !settled[k] {
                let v: Double
                switch status[k] {
                case GLP_NL: v = d[k]
                case GLP_NU: v = -d[k]
                case GLP_NF:
                    if abs(d[k]) > tol { return .improving(level: level) }  // a free nonbasic with a cost
                    continue
                default: return .giveUp
                }
                if v < -tol { return .improving(level: level) }  // not dual feasible for this level
                if v > tol { settled[k] = true }  // its first non-zero is positive: it stays at its bound
            }
        }
        // On the exact face every settled nonbasic stays at its bound; the
        // others (zero cost at every level, or free) may move.
        let movable = (1...(m + n)).filter { !settled[$0] }

        // Why columns, not rows: only movable nonbasics can move anything,
        // so their columns of the simplex tableau (one FTRAN each) are all
        // the tableau that matters, and there are far fewer of them than
        // basic variables (self-sizing rows, R = 1,000: rows took 4 s).
        var ind = [Int32](repeating: 0, count: m + 1), val = [Double](repeating: 0, count: m + 1)
        var entriesOf: [Int: [(index: Int, alpha: Double)]] = [:]  // basic k -> (movable j, α_kj)
        // Per movable column, the size below which an entry is rounding
        // (see the guards below).
        var roundoff = [Double](repeating: 0, count: m + n + 1)
        let trusted = hint.flatMap { pins in movable.contains { pins[$0] == .settled } ? nil : pins }
        func pinned(_ j: Int) -> Bool { trusted?[j] == .pinned }
        // Why skip columns in no row: their tableau column is zero, and each
        // FTRAN costs O(rows) whatever it finds (the decorated grid's free
        // badges, one per 50 rows: 200 FTRANs of 81,806 rows, 0.5 s at
        // R = 10^4, quadratic in R).
        var inSomeRow = [Bool](repeating: false, count: n + 1)
        for e in entries where Int(e.column) <= n { inSomeRow[Int(e.column)] = true }
        for j in movable where !pinned(j) && (j <= m || inSomeRow[j - m]) {
            // j is nonbasic and the factorization exists (checked above):
            // glp_eval_tab_col's preconditions, so it cannot abort.
            let length = Int(glp_eval_tab_col(problem, Int32(j), &ind, &val))
            var largest = 0.0
            for t in stride(from: 1, through: length, by: 1) where ind[t] >= 1 && Int(ind[t]) <= m + n && val[t] != 0 {
                entriesOf[Int(ind[t]), default: []].append((j, val[t]))
                largest = max(largest, abs(val[t]))
            }
            roundoff[j] = Self.tableauRoundoff * max(1, largest)
        }
        var reach = [Double](repeating: 0, count: m + n + 1)
        // A column the hint pins keeps reach 0: it moves nothing, so its
        // tableau column (the FTRAN) is not needed.
        for j in movable where !pinned(j) { reach[j] = .infinity }

        // Degenerate vertices: a movable nonbasic whose every move would
        // push a basic variable past its bound (a row that is tight in the
        // basis, as a hugging row beside its compression row is) cannot
        // move, unless another unbounded nonbasic of the same row pulls
        // back. Per basic variable `b` with distance `δ` to a bound: if
        // every unbounded nonbasic of its row pushes `b` towards that
        // bound, each moves at most (δ + what the bounded ones can pull
        // back) / |α|. Propagated to a fixpoint, as the native analysis
        // pins zero-cost columns (Ambiguity.swift, `pinnedZeroCostColumns`).
        // Free nonbasics move both ways: a row with one never pins.
        // Direction a nonbasic moves in (Δ ≥ 0): +1 up from a lower bound,
        // -1 down from an upper one, 0 both ways (free).
        func direction(_ k: Int) -> Double { status[k] == GLP_NL ? 1 : status[k] == GLP_NU ? -1 : 0 }
        struct Guard { var row: [(index: Int, alpha: Double)]; var below: Double; var above: Double }
        var guards: [Guard] = []
        for b in entriesOf.keys.sorted() where b <= m || b - m > frameCount {
            let isRow = b <= m
            let type = isRow ? glp_get_row_type(problem, Int32(b)) : glp_get_col_type(problem, Int32(b - m))
            guard type == GLP_LO || type == GLP_UP || type == GLP_DB || type == GLP_FX else { continue }
            let value = isRow ? glp_get_row_prim(problem, Int32(b)) : glp_get_col_prim(problem, Int32(b - m))
            let lower = isRow ? glp_get_row_lb(problem, Int32(b)) : glp_get_col_lb(problem, Int32(b - m))
            let upper = isRow ? glp_get_row_ub(problem, Int32(b)) : glp_get_col_ub(problem, Int32(b - m))
            let below = type == GLP_UP ? Double.infinity : max(0, value - lower)
            let above = type == GLP_LO ? Double.infinity : max(0, upper - value)
            guards.append(Guard(row: entriesOf[b] ?? [], below: below, above: above))
        }
        var changed = true
        while changed {
            changed = false
            for g in guards {
                // side -1: b may fall by at most `below`; +1: rise by at most `above`.
                for (side, room) in [(-1.0, g.below), (1.0, g.above)] where room.isFinite {
                    var pullBack = 0.0, harmful: [(Int, Double)] = [], blocked = false
                    for (k, alpha) in g.row {
                        // Why rounding does not pin: FTRAN leaves entries
                        // of 1e-17 where the exact tableau has 0, and one
                        // on a degenerate row (room 0) pinned a column
                        // that moves 12 units on the face (fuzz seed
                        // 648784: v4.x in [792, 804] called determined).
                        // The move it allows is below every tolerance.
                        if abs(alpha) <= roundoff[k] { continue }
                        if reach[k].isInfinite {
                            let dir = direction(k)
                            if dir == 0 { blocked = true; break }  // free: can cancel anything
                            let push = alpha * dir * side  // > 0: moves b towards this bound
                            if push < 0 { blocked = true; break }  // an unbounded one pulls back
                            harmful.append((k, push))
                        } else {
                            pullBack += abs(alpha) * reach[k]
                        }
                    }
                    guard !blocked, !harmful.isEmpty else { continue }
                    for (k, push) in harmful {
                        reach[k] = (room + pullBack) / push
                        changed = true
                    }
                }
            }
        }

        var decided = [Bool](repeating: false, count: frameCount)
        // Why half: the LPs' extremes are feasible only to GLPK's primal
        // tolerance, so a range this far under the threshold is one they
        // call determined too.
        let limit = 0.5 * tolerance.absolute
        for v in 0..<frameCount where status[m + v + 1] == GLP_BS {
            var movement = 0.0
            // Rounding entries are zeros here too (see the guards): the
            // variable does not move with that column.
            for (k, alpha) in entriesOf[m + v + 1] ?? [] where abs(alpha) > roundoff[k] {
                movement += abs(alpha) * reach[k]
                if !(2 * movement <= limit) { break }
            }
            decided[v] = 2 * movement <= limit
        }
        return .decided(decided, reach: reach, movable: movable)
    }

    /// What one look at the final basis found (``determinedByBasis(tolerance:)``).
    enum BasisCheck {
        /// The frame variables proved constant on the face, with how far each
        /// variable (GLPK's k) can move on it (0: pinned) and the movable ones.
        case decided([Bool], reach: [Double], movable: [Int])
        /// A nonbasic can still improve this level (the basis is not dual
        /// feasible for it): re-solve with its objective and look again.
        case improving(level: Int)
        /// Something the argument does not cover: leave everything to the LPs.
        case giveUp
    }
}

/// An `OpaquePointer` handed to the GLPK thread (only that thread dereferences it).
struct SendablePointer: @unchecked Sendable {
    let pointer: OpaquePointer
}
