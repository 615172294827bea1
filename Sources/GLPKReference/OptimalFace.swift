// A solved level held at its optimum: the bounds that fix its optimal face,
// and their release before the next question (the crash's reduced LPs fix
// their faces by the same rule).

import CGLPK

extension LexicographicLP {
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
    /// thickened face and leave many frame variables to LPs, two each
    /// (evidence: docs/measurements.md#m-glpk-ambiguity,
    /// #m-2026-11-23-glpk-faces). The current vertex
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
}
