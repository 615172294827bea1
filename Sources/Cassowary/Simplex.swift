extension CassowarySolver {
    /// A level's improvement at or below this per unit is *weak*: 1e-7,
    /// GLPK's dual feasibility tolerance. Level objectives are sums of errors
    /// with unit coefficients, so a weak improvement is what near-parallel
    /// rows leave (1.000000001 - 1). A weak entering symbol is followed only
    /// if its step stays within ``longestWeakStep``: following one to 1e16
    /// left no precision for a later required row, called a conflict (hostile
    /// seed 95413), while a step of 10 at 1e-7 per unit is a real error of 1
    /// (seed 11602), which ignoring every weak improvement left.
    static let improvementEpsilon = 1e-7
    /// The longest step a weak improvement may take: 1e9, the accepted
    /// magnitude of the format's numbers (NumericRange in LayoutModel).
    static let longestWeakStep = 1e9
    /// A coefficient of the artificial objective below this fraction of its
    /// largest does not decide a sign (see ``enteringSymbol()``): 1e-7, so every
    /// multiplier of the accepted range (down to 1e-6) still counts beside
    /// a 1, and what near-parallel rows leave (1.000000001 - 1) does not.
    static let relativePivotThreshold = 1e-7
    /// Degenerate pivots in a row after which ``optimize()`` switches to
    /// Bland's rule: 50, far more than layouts take (no run longer than 5 in
    /// the corpus or in 300 hostile fuzz layouts), far fewer than a cycle
    /// would need to cost time.
    static let degeneratePivotsBeforeBland = 50

    /// The objective rows, strongest first: the artificial one while adding
    /// through an artificial variable, then one per strength.
    var objectiveRows: [ObjectiveRow] { tableau.objectiveRows }

    /// The entering symbol of the primal simplex: a restricted symbol whose
    /// reduced-cost vector (one coefficient per level, strongest first) is
    /// lexicographically negative, i.e. whose first non-zero entry is
    /// negative.
    ///
    /// Which one, among those: with `bland` (Bland's rule), the lowest id;
    /// otherwise the one that occurs in the fewest rows (a strong improvement
    /// before a weak one), ties by lowest id. Why fewest rows: a pivot
    /// substitutes the entering symbol into every row that contains it, so
    /// its column is the pivot's cost, and the symbols it brings spread into
    /// those rows (fill-in). Lowest id prefers the oldest symbols, which are
    /// the most shared: the container width's edit errors sit in every row of
    /// a grid, and Bland's rule entered them for every note added to the
    /// decorated grid (issue 13: 3 pivots per earlier note per note, each
    /// over all rows, O(notes² × rows); evidence:
    /// docs/measurements.md#m-cassowary-costs).
    /// Bland's rule is what guarantees no cycling; ``optimize()`` falls back
    /// to it after a run of degenerate pivots, the only pivots that can cycle.
    /// Either way the choice is deterministic.
    ///
    /// A coefficient counts as non-zero above ``Row/nearZero``; in the
    /// artificial objective (a new row without a subject) also only above
    /// ``relativePivotThreshold`` of that row's largest. Why: the artificial
    /// objective is the new row itself, and entering a symbol on a tiny
    /// coefficient solves the row for it. `5e6 + 1e-9·e8 - 1e-9·e9 - e12 + …`
    /// (what is left of `v = w·1.000000001` beside `v = w - 5e6`) let `e9`
    /// enter on its 1e-9 and leave the basis at 5e6 / 1e-9 = 5e15, where a
    /// double has no fraction: a container width of 0.5 came back as 1 (the
    /// threshold rule of sparse LU pivoting). The threshold is fixed from the
    /// row as added, and the levels keep the absolute test. Why: a threshold
    /// that moves with every pivot makes the sign decisions inconsistent
    /// between pivots, and Bland's rule then cycled (hostile seed 1433).
    /// Returns the symbol and whether its improvement is weak (see
    /// ``improvementEpsilon``); symbols in `excluded` are passed over.
    /// - Complexity: O(candidates), after the candidates are brought up to
    ///   date (``Tableau/refreshCandidates()``).
    mutating func enteringSymbol(excluding excluded: Set<Int32> = [], bland: Bool = false) -> (symbol: Symbol, weak: Bool)? {
        tableau.refreshCandidates()
        #if LAYOUT_BENCH_INVARIANTS
        checkCandidates()
        #endif
        let candidates = tableau.candidates
        var best: (id: Int32, weak: Bool, rows: Int)?
        for id in candidates.members where excluded.isEmpty || !excluded.contains(id) {
            let weak = candidates.isWeak(id)
            if bland {
                if best.map({ id < $0.id }) ?? true { best = (id, weak, 0) }
                continue
            }
            let count = tableau.columns[Int(id)].count
            if let current = best, ((current.weak ? 1 : 0), current.rows, current.id) < ((weak ? 1 : 0), count, id) { continue }
            best = (id, weak, count)
        }
        return best.map { (tableau.symbol(id: $0.id), $0.weak) }
    }

    /// Records an invariant violation when the kept candidates differ from a
    /// full scan of the objectives (builds with `LAYOUT_BENCH_INVARIANTS`).
    func checkCandidates() {
        let problems = candidateProblems()
        if !problems.isEmpty { InvariantLog.record(problems) }
    }

    /// How the kept candidates (up to date: after
    /// ``Tableau/refreshCandidates()``) differ from a full scan of the objectives.
    func candidateProblems() -> [String] {
        let scanned = tableau.candidatesByScan()
        let kept = tableau.candidates
        var problems: [String] = []
        if Set(kept.members) != Set(scanned.keys) {
            problems.append("entering candidates \(kept.members.sorted()) differ from a scan's \(scanned.keys.sorted())")
        }
        for (id, weak) in scanned where kept.members.contains(id) && kept.isWeak(id) != weak {
            problems.append("entering candidate \(id): weak \(kept.isWeak(id)), a scan says \(weak)")
        }
        return problems
    }

    /// The row that leaves when `entering` grows: among restricted basic rows
    /// where its coefficient is negative, the smallest `constant / -coefficient`,
    /// ties by lowest basic id (exact comparison, so the choice does not depend
    /// on the order the column is visited in).
    func leavingRow(for entering: Symbol) -> (symbol: Symbol, ratio: Double)? {
        var best: (ratio: Double, id: Int32)?
        for b in tableau.columns[Int(entering.id)] where tableau.kinds[Int(b)] != .external {
            let row = tableau.rows[Int(b)]
            let c = row.coefficient(of: entering)
            guard c < 0 else { continue }
            let ratio = max(0, row.constant) / -c
            if best.map({ ratio < $0.ratio || (ratio == $0.ratio && b < $0.id) }) ?? true { best = (ratio, b) }
        }
        return best.map { (tableau.symbol(id: $0.id), $0.ratio) }
    }

    /// The most pivots one simplex call may take before it is abandoned as
    /// cycling: 10,000 + 50 per symbol. Why relative to the size: a simplex
    /// needs a few pivots per row, and rounding can make Bland's rule cycle
    /// on badly scaled rows (hostile seed 1433: near-parallel rows with
    /// constants of 1e9 cycled a million pivots on 6 views). GLPK's
    /// iteration limit (LexicographicLP) is the same.
    var pivotLimit: Int { 10_000 + 50 * tableau.symbolCapacity }

    /// Primal simplex on the lexicographic objective.
    /// - Throws: ``CassowaryError/internalError(_:)`` if the objective is
    ///   unbounded or the pivots exceed ``pivotLimit`` (cycling).
    mutating func optimize() throws(CassowaryError) {
        var infeasible = Set<Int32>()
        var guardCount = 0
        let limit = pivotLimit
        // Weak improvements whose step is unbounded or too long, for this call.
        var excluded = Set<Int32>()
        // Degenerate pivots (a step of 0) in a row; past the limit, Bland's
        // rule for the rest of the call. Why: only degenerate pivots can
        // cycle (any other strictly improves the objective), and Bland's rule
        // cannot; the fewest-rows rule is kept while the objective moves.
        var degenerateRun = 0
        var bland = degeneratePivotsBeforeBland <= 0
        while let (entering, weak) = enteringSymbol(excluding: excluded, bland: bland) {
            guard let (leaving, ratio) = leavingRow(for: entering), !weak || ratio <= Self.longestWeakStep else {
                if weak { excluded.insert(entering.id); continue }
                throw .internalError("objective is unbounded (entering \(entering))")
            }
            degenerateRun = ratio == 0 ? degenerateRun + 1 : 0
            if degenerateRun >= degeneratePivotsBeforeBland { bland = true }
            tableau.pivot(leaving: leaving, entering: entering, infeasible: &infeasible)
            guardCount += 1
            if guardCount > limit { throw .numericalTrouble("the primal simplex cycled (\(limit) pivots) on badly scaled rows") }
        }
    }

    /// Dual simplex: repairs restricted rows with negative constants while
    /// keeping the objective optimal. The row taken next is the most
    /// infeasible one: the most negative constant, ties by the lowest id, so
    /// the pivot sequence is deterministic.
    ///
    /// Why the most negative first (the dual's counterpart of Dantzig's
    /// rule) and not the lowest id, as before: a pivot moves the constants of
    /// every row in its column, and repairing the worst row first leaves
    /// fewer rows to repair after it. On random layouts a resize's pivots
    /// went 134 → 111 at 10^3 views and 1,395 → 1,083 at 10^4, from 1.18 to
    /// 0.98-1.06 pivots a row made infeasible by the edit, so the count no
    /// longer grows faster than the layout
    /// (docs/measurements.md#m-2026-11-29-most-infeasible). The optimum is
    /// the same where it is unique; where the optimal face is larger than a
    /// point (views a layout leaves free), any rule may stop at another point
    /// of it, as the lowest id could.
    ///
    /// Why a heap once many rows wait: a walk of the whole set per pivot
    /// cost O(k²) for k infeasible rows (on random layouts of 10^4 views a
    /// sixth of a resize, docs/measurements.md#m-2026-11-27-dual-heap). Past
    /// ``dualHeapThreshold`` waiting rows they go into a heap keyed by their
    /// constants (``InfeasibleQueue``, kept by the solver); a pivot queues
    /// again each row it leaves negative, at its new constant, and an entry
    /// whose key is no longer its row's constant is stale and skipped, so
    /// the heap gives what the walk would: the least (constant, id) among
    /// the rows still infeasible. Why not the heap from the start: a resize
    /// of a small layout repairs a few rows, and growing the heap and the
    /// set of marked rows were allocations that the gate counts.
    /// - Complexity: O(pivots × (their substitutions + log(queued rows))).
    mutating func dualOptimize(_ infeasible: inout Set<Int32>) throws(CassowaryError) {
        var guardCount = 0
        let limit = pivotLimit
        // Why a fallback: taking the lowest id (with the ratio test's ties
        // by id) is the dual form of Bland's rule, which cannot cycle; the
        // most infeasible first can, on degenerate rows. A resize repairs
        // about one row a pivot (1.06 a row the edit made infeasible on
        // random layouts), so eight a row is far past any progress.
        let blandAfter = dualPivotsBeforeBland ?? 8 * infeasible.count + 64
        var bland = false
        // The kept buffers, taken out of the solver while in use (a second
        // reference would make every change copy them) and put back emptied.
        var scratch = dualScratch
        dualScratch = DualScratch()
        var queued = false
        defer {
            infeasible.removeAll()
            scratch.queue.removeAll()
            scratch.marked.removeAll(keepingCapacity: true)
            dualScratch = scratch
        }
        while true {
            if !bland && guardCount >= blandAfter {
                bland = true
                dualBlandRuns += 1
                if queued {
                    scratch.queue.drain(into: &infeasible) { isCurrent($0, $1) }
                    queued = false
                }
            }
            if !bland && !queued && infeasible.count > Self.dualHeapThreshold {
                for b in infeasible where tableau.isBasic[Int(b)] {
                    scratch.queue.push(tableau.rows[Int(b)].constant, b)
                }
                queued = true
                dualHeapRuns += 1
            }
            let next: Int32?
            if bland {
                // (A walk and an array a pivot: only past the rule's bound.)
                next = infeasible.filter { tableau.isBasic[Int($0)] && tableau.rows[Int($0)].constant < -Row.nearZero }.min()
            } else if queued {
                next = scratch.queue.pop { isCurrent($0, $1) }
            } else {
                next = mostInfeasible(infeasible)
            }
            guard let b = next else { return }
            let bi = Int(b)
            // The least constant waiting is within rounding of zero (or
            // above it): every row is feasible.
            guard tableau.rows[bi].constant < -Row.nearZero else { return }
            guard let entering = dualEnteringSymbol(tableau.rows[bi], ratios: &scratch.ratios, best: &scratch.bestRatios) else {
                throw .internalError("dual simplex found no entering symbol (row \(tableau.symbol(id: b)))")
            }
            if queued {
                scratch.marked.removeAll(keepingCapacity: true)
                tableau.pivot(leaving: tableau.symbol(id: b), entering: entering, infeasible: &scratch.marked)
                for m in scratch.marked { scratch.queue.push(tableau.rows[Int(m)].constant, m) }
            } else {
                infeasible.remove(b)
                tableau.pivot(leaving: tableau.symbol(id: b), entering: entering, infeasible: &infeasible)
            }
            guardCount += 1
            if guardCount > limit { throw .numericalTrouble("the dual simplex cycled (\(limit) pivots) on badly scaled rows") }
        }
    }

    /// Whether a queued entry (a row's id and its constant when queued) is
    /// still the row's: basic, at that constant (``InfeasibleQueue``).
    private func isCurrent(_ id: Int32, _ key: Double) -> Bool {
        tableau.isBasic[Int(id)] && tableau.rows[Int(id)].constant == key
    }

    /// The waiting row with the least (constant, id) among those still
    /// basic, or nil when none is: the walk of ``dualOptimize(_:)`` below
    /// its heap's threshold.
    /// - Complexity: O(rows in `infeasible`).
    private func mostInfeasible(_ infeasible: Set<Int32>) -> Int32? {
        var best: Int32?
        var bestConstant = 0.0
        for b in infeasible where tableau.isBasic[Int(b)] {
            let constant = tableau.rows[Int(b)].constant
            if let current = best, constant > bestConstant || (constant == bestConstant && b > current) { continue }
            best = b
            bestConstant = constant
        }
        return best
    }

    /// How many infeasible rows the dual simplex takes by walking their set
    /// for the most infeasible before it queues them in a heap.
    static let dualHeapThreshold = 32

    /// The entering symbol of the dual simplex for an infeasible row: among
    /// restricted symbols with a positive coefficient, the lexicographically
    /// smallest ratio (objective coefficients / row coefficient), ties by id.
    ///
    /// The ratios are computed level by level as a comparison reaches them:
    /// a candidate against the best so far stops at the first level where
    /// they differ, and the best's own ratios are filled in as far as a
    /// comparison has needed them. Why: each ratio is a lookup in a level's
    /// row (two loads by id, over arrays as long as the tableau's ids), and
    /// a lone candidate needs none: a random layout's resize takes 1% fewer
    /// instructions (docs/measurements.md#m-2026-11-29-column-lists; its
    /// misses move to the substitution into the objectives that follows,
    /// which reads the same entries). The same ratios are compared in the
    /// same order, so the same symbol is chosen.
    ///
    /// `ratios` and `best` are kept buffers (``DualScratch``): a fresh array
    /// of ratios for every candidate cell was an allocation and a free per
    /// cell of every pivot's row (a resize of 10^4 random views repairs about
    /// a thousand rows).
    /// - Complexity: O(cells × objective rows × a coefficient lookup) at most.
    func dualEnteringSymbol(_ row: Row, ratios: inout [Double], best: inout [Double]) -> Symbol? {
        let objectives = objectiveRows
        var chosen: Row.Cell?
        best.removeAll(keepingCapacity: true)
        for cell in row.cells where cell.coefficient > 0 && cell.symbol.isRestricted {
            guard let current = chosen else {
                chosen = cell
                continue
            }
            ratios.removeAll(keepingCapacity: true)
            var less = false
            for k in objectives.indices {
                if k == best.count { best.append(objectives[k].coefficient(of: current.symbol) / current.coefficient) }
                let ratio = objectives[k].coefficient(of: cell.symbol) / cell.coefficient
                ratios.append(ratio)
                let d = ratio - best[k]
                if abs(d) > Row.nearZero { less = d < 0; break }
            }
            guard less else { continue }
            // The candidate's ratios, as far as they were computed, are the best's now.
            swap(&ratios, &best)
            chosen = cell
        }
        return chosen?.symbol
    }

    /// Adds a row that has no subject through an artificial variable `a = row`:
    /// minimise `a`; the row is feasible iff the minimum is 0. Then `a` is
    /// pivoted out (if basic) and removed from every row.
    ///
    /// - Returns: whether the row is satisfiable with the others.
    mutating func addWithArtificialVariable(_ row: Row, tolerance: Double) throws(CassowaryError) -> Bool {
        let art = tableau.makeSymbol(.slack)
        tableau.setRow(art, row)
        tableau.setArtificial(row, floor: Self.relativePivotThreshold * row.largestCoefficient)
        defer { tableau.setArtificial(nil) }
        try optimize()
        let success = abs(tableau.artificial?.constant ?? 0) <= tolerance
        tableau.setArtificial(nil)

        if tableau.isBasic(art) {
            let artRow = tableau.row(art)
            if artRow.cells.isEmpty {
                _ = tableau.removeRow(art)
            } else {
                // Pivot any restricted symbol in for it (lowest id).
                guard let entering = artRow.cells.first(where: { $0.symbol.isRestricted })?.symbol else {
                    _ = tableau.removeRow(art)
                    tableau.release(art)
                    return false
                }
                var infeasible = Set<Int32>()
                tableau.pivot(leaving: art, entering: entering, infeasible: &infeasible)
            }
        }
        tableau.scrub(art)
        tableau.release(art)
        return success
    }
}

/// The buffers of ``CassowarySolver/dualOptimize(_:)``: the infeasible rows
/// keyed by their constants, and the rows one pivot marks.
struct DualScratch {
    var queue = InfeasibleQueue()
    var marked = Set<Int32>()
    /// The ratios of a candidate and of the best so far (``CassowarySolver/dualEnteringSymbol(_:ratios:best:)``).
    var ratios: [Double] = []
    var bestRatios: [Double] = []
}

/// The rows waiting for the dual simplex, each with its constant when
/// queued: the least (constant, id) comes out first, the most infeasible
/// row. A row queued again at a new constant has two entries; the caller's
/// test at ``pop(isCurrent:)`` drops the ones whose key is no longer the
/// row's constant.
struct InfeasibleQueue {
    private struct Entry {
        var key: Double
        var id: Int32
        /// Whether `a` comes out before `b`: the lesser key, ties by id.
        static func precedes(_ a: Entry, _ b: Entry) -> Bool { a.key != b.key ? a.key < b.key : a.id < b.id }
    }

    private var heap = BinaryHeap<Entry>()

    var count: Int { heap.count }

    /// - Complexity: O(log count).
    mutating func push(_ key: Double, _ id: Int32) { heap.push(Entry(key: key, id: id), by: Entry.precedes) }

    /// The first entry that `isCurrent(id, key)` accepts, removed with the
    /// ones before it; nil when none is left.
    /// - Complexity: O(log count) a removed entry.
    mutating func pop(isCurrent: (Int32, Double) -> Bool) -> Int32? {
        while let top = heap.pop(by: Entry.precedes) {
            if isCurrent(top.id, top.key) { return top.id }
        }
        return nil
    }

    /// Moves the ids of the entries `isCurrent(id, key)` accepts into `set`
    /// and empties the queue.
    /// - Complexity: O(count).
    mutating func drain(into set: inout Set<Int32>, isCurrent: (Int32, Double) -> Bool) {
        for entry in heap.elements where isCurrent(entry.id, entry.key) { set.insert(entry.id) }
        heap.removeAll()
    }

    /// Empties the queue, keeping its storage.
    mutating func removeAll() { heap.removeAll() }
}
