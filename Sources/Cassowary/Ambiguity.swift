extension CassowarySolver {
    /// Which variables can still move once every level is optimal: the
    /// variables that are not constant on the *optimal face* (the points where
    /// the required constraints hold and every level's error is at its
    /// optimum), as Auto Layout's `hasAmbiguousLayout` asks.
    ///
    /// The method reads the final tableau. Every restricted nonbasic symbol
    /// has a reduced-cost vector (its coefficients in the level rows, strongest
    /// first) that is lexicographically >= 0 at the optimum; one whose vector
    /// is non-zero must stay at 0 on the face (moving it would raise the first
    /// level where it counts, and nothing at that level can pay it back). So
    /// on the face, a basic variable `v = c + Σ a_j x_j` can move only through
    /// the *zero-cost* restricted nonbasics `Z` and through parametric
    /// (nonbasic) external variables:
    ///
    /// 1. No cell of `v`'s row in `Z` and no parametric external: `v` is
    ///    constant on the face (exactly: every other parameter is fixed at 0).
    /// 2. A parametric external in the row: free. Why exact: restricted rows
    ///    never contain parametric externals (an added row takes an external
    ///    as its subject first, and a pivot substitutes only restricted rows),
    ///    so nothing bounds such a variable; checked, not assumed: if a
    ///    restricted row contains one, the answer is nil.
    /// 3. A cell `a_j`, `j` in `Z`: raising `x_j` is feasible up to
    ///    `t = min b_i / -a_ij` over the restricted rows it lowers (infinite
    ///    if none). If `|a_j| · t` exceeds the tolerance, `v` moves that far
    ///    along an edge of the face: free.
    /// 4. Otherwise (every such edge blocked by a degenerate row, `b_i = 0`, or
    ///    too short), first without an LP: a degenerate restricted row
    ///    `x_i = 0 + Σ a_ik x_k` must stay `>= 0` along any direction on the
    ///    face, so if every zero-cost column still free to move has `a_ik <= 0`
    ///    there, each with `a_ik < 0` is forced to stay at 0; propagated to a
    ///    fixpoint (a forced column can force more rows). A variable whose row
    ///    has no zero-cost column left unforced is constant on the face,
    ///    exactly (the face's directions from this vertex are its tangent
    ///    cone, and every direction of it keeps the row's value). Only sound
    ///    deductions are made, so what remains is decided as before,
    ///    exactly by linear programming on a copy of the tableau:
    ///    the variable's own row is appended as the weakest objective level,
    ///    minimised, then maximised; the lexicographic simplex keeps every
    ///    real level optimal, so the range found is `v`'s range on the face.
    ///    Every other variable that moves in these solves is free too.
    ///
    /// Call after the solve (the tableau optimal, the values updated).
    ///
    /// - Parameters:
    ///   - variables: the variables to classify.
    ///   - tolerance: `(absolute, relative)`: a range counts as movement when it
    ///     exceeds `absolute + relative × max(|low|, |high|)`.
    /// - Returns: for each variable, whether it is free; nil when the tableau
    ///   breaks the invariant of case 2 (the answer would not be exact).
    /// - Throws: ``CassowaryError/internalError(_:)`` if a probe solve fails.
    /// - Complexity: O(size of the tableau) for cases 1–3 (each column's edge
    ///   step is found once) and the propagation
    ///   of case 4 (each column is forced once, and then re-examines the rows
    ///   that contain it); the LPs of case 4 cost two warm-started simplex
    ///   solves per variable they reach (rare: a zero-cost direction that a
    ///   degenerate row does not pin; on self-sizing rows the propagation
    ///   decides every variable that reaches case 4, evidence:
    ///   docs/measurements.md#m-cassowary-ambiguity).
    ///
    /// Why one function over 80 lines: cases 1–3 share memoised closures over
    /// one snapshot of the tableau (the costed symbols, each column's edge
    /// step, the pinned columns, the projections); as separate steps they
    /// would pass five arrays back and forth. Case 4 is its own step
    /// (``exactRanges(_:_:moved:free:)``).
    public func freeVariables(_ variables: [CassowaryVariable], tolerance: (absolute: Double, relative: Double))
        throws(CassowaryError) -> [Bool]?
    {
        let t = tableau
        func moved(_ a: Double, _ b: Double) -> Bool {
            if a.isInfinite || b.isInfinite { return a != b }
            return abs(a - b) > tolerance.absolute + tolerance.relative * max(abs(a), abs(b))
        }
        // Symbols with a non-zero cost at some level: fixed at 0 on the face.
        var costed = [Bool](repeating: false, count: t.kinds.count)
        for level in t.levels {
            for symbol in level.symbols where abs(level.coefficient(of: symbol)) > Row.nearZero { costed[Int(symbol.id)] = true }
        }
        func isZeroCost(_ s: Symbol) -> Bool { s.isRestricted && !t.isBasic[Int(s.id)] && !costed[Int(s.id)] }
        // Case 2's invariant: a parametric external is in external rows only.
        func isUnbounded(_ external: Symbol) -> Bool? {
            for b in t.columns[Int(external.id)] where t.kinds[Int(b)] != .external { return nil }
            return true
        }
        // Case 3: how far `v` moves along the edge that raises zero-cost `j`.
        // Why the step is remembered per column: it depends on `j` alone, and
        // a column that most rows share (self-sizing rows: one per row) was
        // walked again for every variable: O(rows²) (evidence:
        // docs/measurements.md#m-cassowary-ambiguity).
        // NaN: not walked yet (a ratio is never NaN). Why not `Double?`: its
        // tag makes 16 bytes a symbol, and this array was a large part of
        // the analysis's transient memory, the peak of a whole `solve` of
        // self-sizing rows at 10^5.
        // Made at the first edge walked: a determined layout walks none,
        // and the array was 8 bytes a symbol at the peak of its `solve`.
        var steps: [Double] = []
        func edgeMovement(_ j: Symbol, _ a: Double) -> Double {
            if steps.isEmpty { steps = [Double](repeating: .nan, count: t.kinds.count) }
            let step: Double
            if !steps[Int(j.id)].isNaN {
                step = steps[Int(j.id)]
            } else {
                var ratio = Double.infinity
                for b in t.columns[Int(j.id)] where t.kinds[Int(b)] != .external {
                    let c = t.rows[Int(b)].coefficient(of: j)
                    if c < 0 { ratio = min(ratio, max(0, t.rows[Int(b)].constant) / -c) }
                }
                steps[Int(j.id)] = ratio
                step = ratio
            }
            return step.isInfinite ? .infinity : abs(a) * step
        }

        // Zero-cost columns pinned at 0 by degenerate rows (case 4's
        // propagation) can move no variable; neither can costed symbols. What
        // is left, with the parametric externals, is all a row's movement can
        // come from. Why project each external row onto those symbols rather
        // than read it: external rows name other basic externals (the DAG,
        // see ``Tableau``), and expanding them fully is the fill-in the DAG
        // avoids; the projection is exact (cancellations included) and, on
        // a determined layout, empty.
        let forced = pinnedZeroCostColumns(isZeroCost)
        func movable(_ s: Symbol) -> Bool {
            s.kind == .external ? !t.isBasic[Int(s.id)] : isZeroCost(s) && !forced[Int(s.id)]
        }
        // Why a mask, built once, rather than passing `movable` itself: a
        // closure over the tableau snapshot made a context per call, copying
        // (retaining) every array of the tableau once per variable: 86 M of
        // this function's 160 M instructions on the grid at R = 10^4.
        let movableMask = t.kinds.indices.map { i in t.kinds[i].map { movable(Symbol(id: Int32(i), kind: $0)) } ?? false }
        // Only the cells of a projection are read here: its constant need not be kept.
        var projections = ProjectionMemo(keepsConstants: false)
        // The values as of the last ``updateVariables()`` (the precondition).
        // (Read in place, not copied: a copy was one more array of a
        // double per variable at the peak of a `solve`.)
        var free = [Bool](repeating: false, count: variables.count)
        var needsLP: [Int] = []
        for (i, variable) in variables.enumerated() {
            // The row a few variables ahead asked for, as in the walk
            // (Evaluation.swift): at 10^5 self-sizing rows the solve stage,
            // this analysis and the walk, took 0.16-0.23 s with it and
            // 0.25-0.33 s without.
            let ahead = i + Tableau.prefetchDistance
            if ahead < variables.count, variableSymbols.indices.contains(variables[ahead].id) {
                t.prefetchRowCells(variableSymbols[variables[ahead].id].id)
            }
            guard variableSymbols.indices.contains(variable.id) else { continue }
            let symbol = variableSymbols[variable.id]
            if !t.isBasic[Int(symbol.id)] {
                guard let unbounded = isUnbounded(symbol) else { return nil }
                free[i] = unbounded
                continue
            }
            let row = t.projectedRow(of: symbol, keeping: { movableMask[Int($0.id)] }, memo: &projections)
            let value = currentValue(of: variable)
            var candidate = false
            for cell in row.cells {
                if cell.symbol.kind == .external {
                    guard let unbounded = isUnbounded(cell.symbol) else { return nil }
                    if unbounded { free[i] = true; break }
                } else {
                    candidate = true
                    let distance = edgeMovement(cell.symbol, cell.coefficient)
                    if moved(value, value + distance) { free[i] = true; break }
                }
            }
            if !free[i] && candidate { needsLP.append(i) }
        }
        guard !needsLP.isEmpty else { return free }
        guard exactRanges(variables, needsLP, moved: moved, free: &free) else { return nil }
        return free
    }

    /// A variable's value as of the last ``updateVariables()``.
    func currentValue(of variable: CassowaryVariable) -> Double {
        values.indices.contains(variable.id) ? values[variable.id] : 0
    }

    /// Case 4 of ``freeVariables(_:tolerance:)``: exact ranges on a copy (the
    /// caller's tableau is untouched) for the candidates cases 1–3 left, two
    /// warm-started solves each; a candidate that moves in any solve is free.
    /// - Returns: false when a candidate left the basis (the analysis cannot answer).
    func exactRanges(_ variables: [CassowaryVariable], _ needsLP: [Int],
                     moved: (Double, Double) -> Bool, free: inout [Bool]) -> Bool {
        var reference = [Double](repeating: 0, count: variables.count)
        for i in needsLP { reference[i] = currentValue(of: variables[i]) }
        let lpSymbols = needsLP.map { variableSymbols[variables[$0].id] }
        var probe = self
        for i in needsLP where !free[i] {
            let symbol = variableSymbols[variables[i].id]
            guard probe.tableau.isBasic[Int(symbol.id)] else { return false }  // externals never leave the basis
            let range = probe.extremesOnOptimalFace(of: symbol) { solved in
                // Any other candidate that moved in this solve is free. Why only
                // candidates: the others are decided exactly (cases 1-3), and
                // looking at every variable after every solve was quadratic.
                let solvedValues = solved.tableau.values(of: lpSymbols)
                for (n, k) in needsLP.enumerated() where !free[k] && moved(solvedValues[n], reference[k]) {
                    free[k] = true
                }
            }
            if moved(range.minimum, range.maximum) { free[i] = true }
        }
        return true
    }

    /// The zero-cost columns that must stay at 0 on the optimal face, by
    /// propagation over the degenerate restricted rows (``freeVariables(_:tolerance:)``,
    /// case 4). Sound, not complete: a column it does not pin may still be pinned.
    /// - Complexity: O(size of the tableau): a row is re-examined only when a
    ///   column it contains is pinned, and each column is pinned once.
    func pinnedZeroCostColumns(_ isZeroCost: (Symbol) -> Bool) -> [Bool] {
        let t = tableau
        var pinned = [Bool](repeating: false, count: t.kinds.count)
        var queued = [Bool](repeating: false, count: t.kinds.count)
        func isDegenerateRestricted(_ b: Int) -> Bool {
            t.isBasic.indices.contains(b) && t.isBasic[b] && t.kinds[b] != nil && t.kinds[b] != .external && t.rows[b].constant <= 0
        }
        var work: [Int] = []
        for b in t.isBasic.indices where isDegenerateRestricted(b) {
            work.append(b)
            queued[b] = true
        }
        // Why one `negatives` for every row and the cells by index: a fresh
        // array a degenerate row (an allocation at its first append) and a
        // retain and release of each row's cells were most of this pass at
        // 10^4 self-sizing rows (120,000 rows).
        var negatives: [Int] = []
        while let b = work.popLast() {
            queued[b] = false
            negatives.removeAll(keepingCapacity: true)
            var open = false
            for k in 0..<t.rows[b].cells.count {
                let cell = t.rows[b].cells[k]
                let id = Int(cell.symbol.id)
                // Why an external stops the deduction: it can move either way,
                // so the row no longer forces its other columns.
                if cell.symbol.kind == .external { open = true; break }
                guard isZeroCost(cell.symbol), !pinned[id] else { continue }
                if cell.coefficient > 0 { open = true; break }
                if cell.coefficient < 0 { negatives.append(id) }
            }
            guard !open else { continue }
            for id in negatives where !pinned[id] {
                pinned[id] = true
                for other in t.columns[id] where !queued[Int(other)] && isDegenerateRestricted(Int(other)) {
                    queued[Int(other)] = true
                    work.append(Int(other))
                }
            }
        }
        return pinned
    }
}

extension CassowarySolver {
    /// The range a variable can take on the optimal face: the variable's own
    /// row as the weakest objective level, minimised then maximised on a copy
    /// of the tableau (see ``freeVariables(_:tolerance:)``, case 4). A
    /// parametric external, or a row with one, is unbounded both ways.
    ///
    /// - Returns: `(minimum, maximum)`, ±infinity when unbounded; nil for an
    ///   unknown variable.
    /// - Complexity: two warm-started simplex solves.
    public func rangeOnOptimalFace(of variable: CassowaryVariable) -> (minimum: Double, maximum: Double)? {
        guard variableSymbols.indices.contains(variable.id) else { return nil }
        let symbol = variableSymbols[variable.id]
        guard tableau.isBasic[Int(symbol.id)] else { return (-.infinity, .infinity) }
        var probe = self
        guard !probe.tableau.flattened(tableau.rows[Int(symbol.id)]).cells.contains(where: { $0.symbol.kind == .external })
        else { return (-.infinity, .infinity) }
        return probe.extremesOnOptimalFace(of: symbol)
    }

    /// Minimises, then maximises, basic external `symbol` over the optimal
    /// face, in this tableau (call it on a copy): its row becomes the weakest
    /// objective level, so the lexicographic simplex keeps every real level
    /// optimal. `afterEachSolve` sees the tableau after each bounded solve.
    ///
    /// - Returns: `(minimum, maximum)`, ±infinity in a direction that is unbounded.
    /// - Complexity: two warm-started simplex solves.
    mutating func extremesOnOptimalFace(of symbol: Symbol, afterEachSolve: (CassowarySolver) -> Void = { _ in })
        -> (minimum: Double, maximum: Double)
    {
        var extremes: [Double] = []
        for direction in [1.0, -1.0] {
            // The objective must be in the nonbasic symbols of this basis
            // (the first solve pivots): the row flattened now.
            var objective = tableau.flattened(tableau.rows[Int(symbol.id)])
            if direction < 0 { objective.negate() }
            tableau.pushProbeObjective(objective)
            defer { tableau.popProbeObjective() }
            do {
                try optimize()
                extremes.append(tableau.value(of: symbol))
                afterEachSolve(self)
            } catch {
                // Unbounded: the variable leaves every bound in this direction.
                extremes.append(direction > 0 ? -.infinity : .infinity)
            }
        }
        return (extremes[0], extremes[1])
    }
}
