// The ambiguity analysis: which frame variables keep more than one value
// once every level is fixed, from the basis check and then two warm LPs per
// variable it leaves undecided.

import CGLPK
import LayoutModel
import LayoutSolving

extension LexicographicLP {
    /// A frame component is *determined* when its range under the fixed levels
    /// is within this: 100 times GLPK's feasibility tolerance (what the fixed
    /// levels may wiggle by) and 100 times below the 1e-3 of `expect` lines.
    static let ambiguityTolerance = Tolerance.ambiguity

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
        // unbounded both ways without an LP (otherwise two LPs per frame
        // variable; evidence: docs/measurements.md#m-glpk-ambiguity).
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
