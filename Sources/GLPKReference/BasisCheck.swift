// The basis check of the ambiguity analysis: which frame variables the final
// basis alone proves constant on the optimal face, with no LP (on the full
// problem, and on the crash's batches to pin their columns).

import CGLPK
import LayoutSolving

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
        // nothing (every frame variable then goes to the LPs; evidence:
        // docs/measurements.md#m-glpk-ambiguity). A warm primal re-solve with that level's
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
        let (status, head) = basisStatuses(problem, m: m, n: n)
        var settled = settledByStatus(status, m: m, n: n)
        if let verdict = settleByLevelCosts(problem, m: m, n: n, status: status, head: head, levelCost: levelCost,
                                            entries: entries, settled: &settled)
        {
            return verdict
        }
        // On the exact face every settled nonbasic stays at its bound; the
        // others (zero cost at every level, or free) may move.
        let movable = (1...(m + n)).filter { !settled[$0] }
        let trusted = hint.flatMap { pins in movable.contains { pins[$0] == .settled } ? nil : pins }
        let (entriesOf, roundoff) = tableauColumns(problem, m: m, n: n, movable: movable, trusted: trusted, entries: entries)
        var reach = [Double](repeating: 0, count: m + n + 1)
        // A column the hint pins keeps reach 0: it moves nothing, so its
        // tableau column (the FTRAN) is not needed.
        for j in movable where !isPinned(j, by: trusted) { reach[j] = .infinity }

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
        let guards = degenerateGuards(problem, m: m, frameCount: frameCount, entriesOf: entriesOf)
        propagateReach(guards, status: status, roundoff: roundoff, reach: &reach)

        let decided = decidedFrames(m: m, frameCount: frameCount, status: status, entriesOf: entriesOf, roundoff: roundoff,
                                    reach: reach, tolerance: tolerance)
        return .decided(decided, reach: reach, movable: movable)
    }

    /// Every variable's status (GLPK's k: rows 1...m, columns m+1...m+n) and
    /// the basis header (the k of each basic variable, by basis row).
    /// - Complexity: O(*m* + *n*) GLPK calls.
    private static func basisStatuses(_ problem: OpaquePointer, m: Int, n: Int) -> (status: [Int32], head: [Int]) {
        // Status of every variable (GLPK's k: rows 1...m, columns m+1...m+n).
        var status = [Int32](repeating: GLP_BS, count: m + n + 1)
        for i in 1...m { status[i] = glp_get_row_stat(problem, Int32(i)) }
        for j in 1...n { status[m + j] = glp_get_col_stat(problem, Int32(j)) }
        var head = [Int](repeating: 0, count: m + 1)
        for i in 1...m { head[i] = Int(glp_get_bhead(problem, Int32(i))) }
        return (status, head)
    }

    /// The variables settled by their status alone: basic or fixed.
    private static func settledByStatus(_ status: [Int32], m: Int, n: Int) -> [Bool] {
        // Settled: basic, fixed, or bounded at an earlier level.
        var settled = [Bool](repeating: false, count: m + n + 1)
        for k in 1...(m + n) where status[k] == GLP_BS || status[k] == GLP_NS { settled[k] = true }
        return settled
    }

    /// Per level, highest first, the reduced costs of its error sum (one
    /// BTRAN): settles each nonbasic whose first non-zero reduced cost keeps
    /// it at its bound.
    /// - Returns: nil when every level is dual feasible; else the verdict
    ///   (``BasisCheck/improving(level:)`` or ``BasisCheck/giveUp``).
    /// - Complexity: O(*K*·(*m* + *nnz*)) for *K* levels.
    private static func settleByLevelCosts(_ problem: OpaquePointer, m: Int, n: Int, status: [Int32], head: [Int],
                                           levelCost: [[Double]], entries: [(row: Int32, column: Int32, value: Double)],
                                           settled: inout [Bool]) -> BasisCheck?
    {
        let tol = Self.reducedCostTolerance
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
        return nil
    }

    /// Whether the trusted hint pinned variable `j` (it then moves nothing).
    private static func isPinned(_ j: Int, by trusted: [CrashPlan.Pin]?) -> Bool { trusted?[j] == .pinned }

    /// The tableau columns of the movable nonbasics the hint does not pin,
    /// by basic variable (basic k -> (movable j, α_kj)), and per column the
    /// size below which an entry is rounding.
    /// - Complexity: O(*m* + *nnz*) per column in some row (one FTRAN each).
    private static func tableauColumns(_ problem: OpaquePointer, m: Int, n: Int, movable: [Int], trusted: [CrashPlan.Pin]?,
                                       entries: [(row: Int32, column: Int32, value: Double)])
        -> (entriesOf: [Int: [(index: Int, alpha: Double)]], roundoff: [Double])
    {
        // Why columns, not rows: only movable nonbasics can move anything,
        // so their columns of the simplex tableau (one FTRAN each) are all
        // the tableau that matters, and there are far fewer of them than
        // basic variables (evidence: docs/measurements.md#m-glpk-costs).
        var ind = [Int32](repeating: 0, count: m + 1), val = [Double](repeating: 0, count: m + 1)
        var entriesOf: [Int: [(index: Int, alpha: Double)]] = [:]  // basic k -> (movable j, α_kj)
        // Per movable column, the size below which an entry is rounding
        // (see the guards below).
        var roundoff = [Double](repeating: 0, count: m + n + 1)
        // Why skip columns in no row: their tableau column is zero, and each
        // FTRAN costs O(rows) whatever it finds (the decorated grid's free
        // badges, one per 50 rows: O(R) FTRANs of O(R) rows, quadratic in R;
        // evidence: docs/measurements.md#m-2026-11-23-glpk-crash-scale).
        var inSomeRow = [Bool](repeating: false, count: n + 1)
        for e in entries where Int(e.column) <= n { inSomeRow[Int(e.column)] = true }
        for j in movable where !isPinned(j, by: trusted) && (j <= m || inSomeRow[j - m]) {
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
        return (entriesOf, roundoff)
    }

    /// A bounded basic variable that may pin movable nonbasics: its row of
    /// the tableau columns, and how far it may fall and rise.
    private struct Guard { var row: [(index: Int, alpha: Double)]; var below: Double; var above: Double }

    /// The guards of ``propagateReach(_:status:roundoff:reach:)``: every
    /// basic variable with a tableau entry that is a row or an error column
    /// (not a frame variable) and has a bound, in order of k.
    /// - Complexity: O(1) GLPK calls per such variable.
    private static func degenerateGuards(_ problem: OpaquePointer, m: Int, frameCount: Int,
                                         entriesOf: [Int: [(index: Int, alpha: Double)]]) -> [Guard]
    {
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
        return guards
    }

    /// Bounds the reach of the movable nonbasics that every move of theirs
    /// pushes some guard past its bound, to a fixpoint (`reach` infinite:
    /// unbounded so far).
    /// - Complexity: O(guard entries) per round, until no reach changes.
    private static func propagateReach(_ guards: [Guard], status: [Int32], roundoff: [Double], reach: inout [Double]) {
        // Direction a nonbasic moves in (Δ ≥ 0): +1 up from a lower bound,
        // -1 down from an upper one, 0 both ways (free).
        func direction(_ k: Int) -> Double { status[k] == GLP_NL ? 1 : status[k] == GLP_NU ? -1 : 0 }
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
    }

    /// The frame variables that are basic and move by at most half the
    /// ambiguity tolerance both ways together (`Σ |α_vj|·reach_j`).
    private static func decidedFrames(m: Int, frameCount: Int, status: [Int32], entriesOf: [Int: [(index: Int, alpha: Double)]],
                                      roundoff: [Double], reach: [Double], tolerance: Tolerance) -> [Bool]
    {
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
        return decided
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
