import CGLPK
import Dispatch

/// A basis of a GLPK problem: the status of each row and column (index 0
/// unused). The one owner of taking, comparing and installing statuses: the
/// crash plan's bases, the hints' basis and the start a failed plan goes
/// back to are all one.
struct Basis {
    var rowStatus: [Int32]
    var columnStatus: [Int32]

    /// `problem`'s current basis.
    /// - Complexity: O(*m* + *n*) GLPK calls.
    init(of problem: OpaquePointer) {
        let m = Int(glp_get_num_rows(problem)), n = Int(glp_get_num_cols(problem))
        rowStatus = [Int32](repeating: 0, count: m + 1)
        columnStatus = [Int32](repeating: 0, count: n + 1)
        for i in stride(from: 1, through: m, by: 1) { rowStatus[i] = glp_get_row_stat(problem, Int32(i)) }
        for j in stride(from: 1, through: n, by: 1) { columnStatus[j] = glp_get_col_stat(problem, Int32(j)) }
    }

    init(rowStatus: [Int32], columnStatus: [Int32]) {
        self.rowStatus = rowStatus
        self.columnStatus = columnStatus
    }

    /// Whether `problem` has this basis now.
    /// - Complexity: O(*m* + *n*) GLPK calls.
    func matches(_ problem: OpaquePointer) -> Bool {
        let m = Int(glp_get_num_rows(problem)), n = Int(glp_get_num_cols(problem))
        guard m + 1 == rowStatus.count, n + 1 == columnStatus.count else { return false }
        for i in stride(from: 1, through: m, by: 1) where glp_get_row_stat(problem, Int32(i)) != rowStatus[i] { return false }
        for j in stride(from: 1, through: n, by: 1) where glp_get_col_stat(problem, Int32(j)) != columnStatus[j] { return false }
        return true
    }

    /// Gives `problem` this basis (GLPK turns a nonbasic status into the one
    /// the variable's bounds allow). A basis of another size is not
    /// installed: the problem gets GLPK's crash basis instead.
    /// - Complexity: O(*m* + *n*) GLPK calls.
    func install(into problem: OpaquePointer) {
        let m = Int(glp_get_num_rows(problem)), n = Int(glp_get_num_cols(problem))
        guard m + 1 == rowStatus.count, n + 1 == columnStatus.count else { return glp_adv_basis(problem, 0) }
        for i in stride(from: 1, through: m, by: 1) { glp_set_row_stat(problem, Int32(i), rowStatus[i]) }
        for j in stride(from: 1, through: n, by: 1) { glp_set_col_stat(problem, Int32(j), columnStatus[j]) }
    }
}

/// For each level of a lexicographic solve, the basis the crash proposes for
/// the full problem (``LexicographicLP/makeCrashPlan(levels:)``).
struct CrashPlan {
    /// Per level, in solve order (one entry for a feasibility solve).
    var bases: [Basis]
    /// What each variable's batch found at the last level's optimum (GLPK's
    /// k: rows 1...m, columns m+1...m+n of the full problem), by
    /// ``LexicographicLP/checkBasis(_:levelCost:entries:frameCount:tolerance:hint:)``.
    var pins: [Pin]

    /// What a batch's basis check says of one variable.
    enum Pin: UInt8 {
        /// In no batch (an eliminated variable, a pivot row, an inactive row).
        case unseen
        /// Basic, fixed, or kept at its bound by a level's reduced cost.
        case settled
        /// Movable, with room to move.
        case movable
        /// Movable, but every move pushes a basic variable past a bound it sits on.
        case pinned
    }
}

/// What the crash tells the ambiguity analysis: the full problem's basis
/// after the plan's last level, and which of its movable variables the
/// batches pinned. Valid only while the full problem keeps that basis.
struct CrashHints {
    var basis: Basis
    var pins: [CrashPlan.Pin]
}

extension LexicographicLP {
    /// Rows of reduced LP per batch: components are solved together up to
    /// this size. Why batches and not one LP: GLPK's simplex costs O(rows)
    /// per pivot whatever the sparsity (it clears and copies dense work
    /// vectors), so one LP of many independent components costs
    /// O(pivots × rows), quadratic in the number of components. Why not one
    /// LP per component: it is no faster than batches, and batches keep the
    /// number of GLPK problems, and of their allocations, small.
    static let crashBatchRows = 256

    /// Proposes, for every level of the first solve of a large problem, an
    /// optimal basis of the full problem, from LPs a few hundred times smaller:
    /// the full problem's simplex then only factorises and checks it.
    ///
    /// Why: from GLPK's own start (presolved or crash), the first level's
    /// dual simplex needs about one pivot per frame variable, and each pivot
    /// costs O(rows) (GLPK's LU has no hypersparse solves): quadratic, most
    /// of a large solve (evidence: docs/measurements.md#m-2026-11-23-glpk-crash-scale).
    ///
    /// How:
    /// 1. The required equalities are eliminated (``EqualityElimination``).
    ///    What is left, the reduced LP (soft rows, inequalities, and the
    ///    degrees of freedom they decide), is the full LP restricted to the
    ///    pivot rows' solutions.
    /// 2. The reduced LP falls apart into connected components (rows that
    ///    share a frame variable); layouts are local, so they are small. They
    ///    are solved in batches, each lexicographically by the reference's
    ///    own rules (every level, then its optimal face fixed by
    ///    ``fixOptimalFace(of:recording:)``), and each level's optimal basis
    ///    is recorded. Levels are sums over rows, so each level's optimum is
    ///    the sum of the components' optima.
    /// 3. A level's basis is lifted: every eliminated frame variable basic
    ///    in its pivot row's place, the pivot rows nonbasic (fixed), every
    ///    other row and column with its status in the reduced LP. It is
    ///    nonsingular (block-triangular: the pivots' block times the reduced
    ///    basis), and it has the reduced basis's reduced costs, so it is
    ///    optimal for the level exactly when the reduced one is.
    /// 4. Each batch also runs the basis check of the ambiguity analysis on
    ///    its final basis (``checkBasis(_:levelCost:entries:frameCount:tolerance:hint:)``),
    ///    and what it found is recorded (``CrashPlan/pins``).
    ///
    /// The answer stays GLPK's on the full problem: each lifted basis is only
    /// a starting point, which its simplex factorises, checks for primal and
    /// dual feasibility, and pivots from if rounding left it short (and
    /// ``solveLexicographically()`` redoes the solve from GLPK's own start if
    /// it cannot finish). When the elimination or a batch fails (fill-in, a
    /// batch that is infeasible or does not solve), there is no plan and the
    /// caller presolves instead.
    ///
    /// - Parameter levels: the active levels (indices into `levelPriorities`)
    ///   in solve order; empty for a feasibility solve.
    /// - Returns: the plan, or nil.
    /// - Complexity: the elimination (about O(*nnz* log *m*) on layouts), the
    ///   batches' simplex (O(pivots × batch size)), and O(*m* + *n*) per level
    ///   for the statuses.
    func makeCrashPlan(levels: [Int]) -> CrashPlan? {
        let m = rows.count
        var activeRow = [Bool](repeating: false, count: m)
        for r in rows.indices { activeRow[r] = isActive(rows[r]) }
        // Why a limit on fill: a dense coupling (a row summing every view)
        // could make the elimination quadratic; four times the matrix is far
        // above what chains of equalities create (none at all on the grids).
        let initial = rows.reduce(0) { $0 + $1.row.expression.terms.count }
        guard let elimination = EqualityElimination(rows: rows, active: activeRow, variableCount: variableCount,
                                                    fillLimit: 4 * initial + 10_000)
        else { return nil }
        let reduced = elimination.reduced

        // Statuses outside the reduced LP, the same at every level: inactive
        // rows are free (basic), pivot rows fixed (nonbasic), eliminated
        // frame variables basic, and frame variables in no row nonbasic (GLPK
        // turns NL into the status their bounds allow: NF for free, NS for
        // fixed).
        var baseRows = [Int32](repeating: GLP_BS, count: m + 1)
        var baseColumns = [Int32](repeating: GLP_NL, count: Int(columnCount) + 1)
        for (row, column) in elimination.pivots {
            baseRows[row + 1] = GLP_NS
            baseColumns[column + 1] = GLP_BS
        }
        let solveLevels: [Int?] = levels.isEmpty ? [nil] : levels.map { $0 }
        var plan = CrashPlan(bases: Array(repeating: Basis(rowStatus: baseRows, columnStatus: baseColumns),
                                          count: solveLevels.count),
                             pins: Array(repeating: .unseen, count: m + Int(columnCount) + 1))

        // Components: union-find over reduced rows joined by frame variables.
        var parent = Array(reduced.indices)
        func root(_ a: Int) -> Int {
            var a = a
            while parent[a] != a { parent[a] = parent[parent[a]]; a = parent[a] }
            return a
        }
        var firstRow = [Int](repeating: -1, count: variableCount)
        for (t, row) in reduced.enumerated() {
            for c in row.columns {
                let j = Int(c)
                if firstRow[j] < 0 { firstRow[j] = t; continue }
                let a = root(firstRow[j]), b = root(t)
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        // Members of each component, components in order of their first row
        // (deterministic batches).
        var componentOf = [Int](repeating: -1, count: reduced.count)
        var members: [[Int]] = []
        for t in reduced.indices {
            let r = root(t)
            if componentOf[r] < 0 { componentOf[r] = members.count; members.append([]) }
            members[componentOf[r]].append(t)
        }
        // The batch's column of each full column (0: not in the batch),
        // cleared after each batch.
        var local = [Int32](repeating: 0, count: Int(columnCount) + 1)
        var batch: [Int] = []
        for (index, component) in members.enumerated() {
            batch += component
            guard batch.count >= Self.crashBatchRows || index == members.count - 1 else { continue }
            guard solveBatch(batch, of: reduced, levels: solveLevels, into: &plan, local: &local) else { return nil }
            batch.removeAll(keepingCapacity: true)
        }
        return plan
    }

    /// Solves the reduced rows `batch` lexicographically as one GLPK problem
    /// and records each level's optimal statuses into `plan`.
    /// - Returns: false if a level does not solve to optimality.
    /// - Parameter local: all zeros, of one entry per full column (1-based);
    ///   all zeros again on return.
    private func solveBatch(_ batch: [Int], of reduced: [EqualityElimination.ReducedRow], levels: [Int?],
                            into plan: inout CrashPlan, local: inout [Int32]) -> Bool
    {
        let (fullColumn, isFrame) = batchColumns(batch, of: reduced, local: &local)
        defer { for j in fullColumn.dropFirst() { local[Int(j)] = 0 } }
        let columnTotal = Int32(fullColumn.count - 1)
        // A batch of rows with no column is constants only: their rows stay
        // basic (the full simplex judges them); GLPK aborts on 0 columns.
        guard columnTotal > 0 else { return true }
        guard let q = glp_create_prob() else { return false }
        defer { glp_delete_prob(q) }
        let (ia, ja, ar) = loadBatch(batch, of: reduced, into: q, isFrame: isFrame, local: local)
        guard solveBatchLevels(q, batch: batch, of: reduced, levels: levels, fullColumn: fullColumn, local: local, into: &plan)
        else { return false }
        crashIterations += Int(glp_get_it_cnt(q))
        recordBatchPins(q, batch: batch, of: reduced, levels: levels, fullColumn: fullColumn, isFrame: isFrame, local: local,
                        matrix: (ia, ja, ar), into: &plan)
        return true
    }

    /// The batch's columns: its frame variables in order of first
    /// appearance, then its error columns, each as its full column
    /// (1-based; index 0 unused), with whether it is a frame variable.
    /// Sets `local` to the batch's column of each full column it holds.
    private func batchColumns(_ batch: [Int], of reduced: [EqualityElimination.ReducedRow], local: inout [Int32])
        -> (fullColumn: [Int32], isFrame: [Bool])
    {
        // Columns: frame variables in order of first appearance, then error columns.
        var fullColumn: [Int32] = [0]
        var isFrame: [Bool] = [false]
        for t in batch {
            for c in reduced[t].columns where local[Int(c) + 1] == 0 {
                fullColumn.append(c + 1); isFrame.append(true)
                local[Int(c) + 1] = Int32(fullColumn.count - 1)
            }
        }
        for t in batch {
            for e in rows[reduced[t].lpRow].errorColumns where e >= 1 && e <= columnCount && local[Int(e)] == 0 {
                fullColumn.append(e); isFrame.append(false)
                local[Int(e)] = Int32(fullColumn.count - 1)
            }
        }
        return (fullColumn, isFrame)
    }

    /// Builds the batch's LP in `q` (empty): the frame columns free, the
    /// error columns at least 0, one row per reduced row with its bounds.
    /// - Returns: the matrix as loaded (1-based triplets, index 0 unused).
    private func loadBatch(_ batch: [Int], of reduced: [EqualityElimination.ReducedRow], into q: OpaquePointer,
                           isFrame: [Bool], local: [Int32]) -> (ia: [Int32], ja: [Int32], ar: [Double])
    {
        let rowCount = Int32(batch.count), columnTotal = Int32(isFrame.count - 1)
        glp_set_obj_dir(q, GLP_MIN)
        _ = glp_add_rows(q, rowCount)
        _ = glp_add_cols(q, columnTotal)
        for k in 1...columnTotal {
            if isFrame[Int(k)] { glp_set_col_bnds(q, k, GLP_FR, 0, 0) } else { glp_set_col_bnds(q, k, GLP_LO, 0, 0) }
        }
        var ia: [Int32] = [0], ja: [Int32] = [0], ar: [Double] = [0]
        for (position, t) in batch.enumerated() {
            let i = Int32(position + 1), row = reduced[t], info = rows[row.lpRow]
            let b = Self.bounds(info.row.relation, rhs: -row.constant)
            glp_set_row_bnds(q, i, b.type, b.lower, b.upper)
            for (c, v) in zip(row.columns, row.values) {
                ia.append(i); ja.append(local[Int(c) + 1]); ar.append(v)
            }
            for (t, e) in info.errorColumns.enumerated() {
                ia.append(i); ja.append(local[Int(e)]); ar.append(info.errorCoefficient(t))
            }
        }
        Self.loadMatrix(q, ia, ja, ar)
        return (ia, ja, ar)
    }

    /// Solves the batch's LP `q` level by level, as the full solve does, and
    /// records each level's optimal statuses into `plan` before fixing its
    /// optimal face.
    /// - Returns: false if a level does not solve to optimality.
    private func solveBatchLevels(_ q: OpaquePointer, batch: [Int], of reduced: [EqualityElimination.ReducedRow], levels: [Int?],
                                  fullColumn: [Int32], local: [Int32], into plan: inout CrashPlan) -> Bool
    {
        let rowCount = Int32(batch.count), columnTotal = Int32(fullColumn.count - 1)
        var parameters = glp_smcp()
        glp_init_smcp(&parameters)
        parameters.msg_lev = GLP_MSG_OFF
        parameters.it_lim = Int32(clamping: 10_000 + 50 * (Int(rowCount) + Int(columnTotal)))
        parameters.tm_lim = Int32(clamping: Int(LexicographicLP.simplexTimeLimit * 1000))
        var fixes: [LevelFix] = []
        var objective: [Int32] = []
        for (t, level) in levels.enumerated() {
            for k in objective { glp_set_obj_coef(q, k, 0) }
            objective.removeAll(keepingCapacity: true)
            if let level {
                for position in batch.indices where rows[reduced[batch[position]].lpRow].level == level {
                    for e in rows[reduced[batch[position]].lpRow].errorColumns {
                        let k = local[Int(e)]
                        glp_set_obj_coef(q, k, 1)
                        objective.append(k)
                    }
                }
            }
            // As in the full solve: the dual simplex from the slack basis
            // first, then the primal from the last level's optimum.
            parameters.meth = t == 0 ? GLP_DUALP : GLP_PRIMAL
            let start = DispatchTime.now().uptimeNanoseconds
            let code = glp_simplex(q, &parameters)
            simplexSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
            simplexCalls += 1
            guard code == 0, glp_get_status(q) == GLP_OPT else { return false }
            for (position, t2) in batch.enumerated() {
                plan.bases[t].rowStatus[reduced[t2].lpRow + 1] = glp_get_row_stat(q, Int32(position + 1))
            }
            for k in 1...columnTotal { plan.bases[t].columnStatus[Int(fullColumn[Int(k)])] = glp_get_col_stat(q, k) }
            Self.fixOptimalFace(of: q, recording: &fixes)
        }
        return true
    }

    /// Runs the basis check on the batch's final basis and records what it
    /// found of each of the batch's variables into `plan`'s pins (nothing
    /// when the basis cannot be factorised or the check decides nothing).
    private func recordBatchPins(_ q: OpaquePointer, batch: [Int], of reduced: [EqualityElimination.ReducedRow], levels: [Int?],
                                 fullColumn: [Int32], isFrame: [Bool], local: [Int32],
                                 matrix triplets: (ia: [Int32], ja: [Int32], ar: [Double]), into plan: inout CrashPlan)
    {
        let (ia, ja, ar) = triplets
        let rowCount = Int32(batch.count), columnTotal = Int32(fullColumn.count - 1)
        // Why check the batch's basis here: the ambiguity analysis computes a
        // tableau column (an O(rows) FTRAN in GLPK) for each movable
        // nonbasic of the full problem, and at a degenerate vertex (every
        // content row of self-sizing rows) there are two per row, all pinned:
        // quadratic (evidence: docs/measurements.md#m-2026-11-23-glpk-crash-scale).
        // Tableau entries on the reduced LP's
        // basic variables are the same in the batch as in the full problem
        // (its basis is block diagonal by component, and the eliminated frame
        // variables are free, never a bound that pins), so the batch's
        // fixpoint pins the same columns, at O(batch) per column.
        var levelCost: [[Double]] = []
        for level in levels {
            guard let level else { continue }
            var cost = [Double](repeating: 0, count: Int(columnTotal) + 1)
            var any = false
            for t in batch where rows[reduced[t].lpRow].level == level {
                for e in rows[reduced[t].lpRow].errorColumns { cost[Int(local[Int(e)])] = 1; any = true }
            }
            if any { levelCost.append(cost) }
        }
        if glp_bf_exists(q) == 0 { _ = glp_factorize(q) }
        guard glp_bf_exists(q) != 0 else { return }
        let frameCount = isFrame.lastIndex(of: true) ?? 0
        let matrix = (1..<ia.count).map { (row: ia[$0], column: ja[$0], value: ar[$0]) }
        let check = Self.checkBasis(q, levelCost: levelCost, entries: matrix, frameCount: frameCount,
                                    tolerance: Self.ambiguityTolerance, hint: nil)
        guard case .decided(_, let reach, let movable) = check else { return }
        let m = rows.count
        func full(_ k: Int) -> Int { k <= Int(rowCount) ? reduced[batch[k - 1]].lpRow + 1 : m + Int(fullColumn[k - Int(rowCount)]) }
        for k in 1...(Int(rowCount) + Int(columnTotal)) { plan.pins[full(k)] = .settled }
        for k in movable { plan.pins[full(k)] = reach[k] == 0 ? .pinned : .movable }
    }
}
