// The minimal conflict of an infeasible layout: a deletion filter over its
// active required rows.

import CGLPK

extension LexicographicLP {
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
}
