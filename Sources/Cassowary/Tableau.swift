/// The simplex tableau in solved form, with a column index.
///
/// - `rows[id]` is the row of basic symbol `id` (`isBasic[id]` says whether it is one).
/// - `columns[id]` is the set of basic symbols whose rows contain symbol `id`.
///   Why: substituting a symbol then touches only the rows that contain it,
///   instead of every row of the tableau (kiwi visits all rows per pivot).
/// - `levels[k]` is the objective row of the k-th soft strength, strongest
///   first. Why one row per level instead of weighted doubles: priorities are
///   lexicographic; weights (1e6/1e3/1) break when errors exceed the ratio.
///
/// Everything is `private(set)`: the solver reads the tableau freely, but only
/// the methods below change it, so the column index, the `absorbed` flags, the
/// level counts and the entering candidates cannot drift from the rows.
struct Tableau {
    private(set) var kinds: [Symbol.Kind?] = []
    private var freeIDs: [Int32] = []
    private(set) var rows: [Row] = []
    private(set) var isBasic: [Bool] = []
    private(set) var columns: [ColumnSet] = []
    /// Whether a basic symbol's row has been copied into another row (by a
    /// new constraint's substitution) or removed (by a pivot) since it was last
    /// set by ``setRow(_:_:fresh:)``. A required equality whose subject row was
    /// never absorbed is the only row that depends on it, so it can be removed
    /// by dropping that row.
    private(set) var absorbed: [Bool] = []

    /// Strengths of the objective levels, strongest first (all soft).
    /// (The levels and the artificial objective change only through the
    /// methods under "Changing the objectives" and ``substitute(_:_:infeasible:)``,
    /// which mark what they change in ``candidates``.)
    private(set) var levelStrengths: [Double] = []
    private(set) var levels: [Row] = []
    /// How many soft constraints use each level; a level is dropped at zero.
    private(set) var levelUsers: [Int] = []
    /// The artificial objective, above every level, while adding a row that
    /// has no subject.
    private(set) var artificial: Row?
    /// The artificial objective's zero threshold, fixed from the row as added
    /// (`CassowarySolver.enteringSymbol`).
    private(set) var artificialFloor = 0.0
    /// The symbols that may enter the primal simplex. Not `private(set)`
    /// only because its refresh lives with it (EnteringCandidates.swift, an
    /// extension of `Tableau`); nothing outside the tableau changes it.
    var candidates = EnteringCandidates()

    /// Simplex pivots done since creation (a machine-independent cost measure).
    private(set) var pivotCount = 0
    /// Rows rewritten by substitution since creation: what pivots cost, as
    /// a count (tests compare entering rules by it).
    private(set) var substitutedRowCount = 0

    // MARK: Symbols

    mutating func makeSymbol(_ kind: Symbol.Kind) -> Symbol {
        // Why reuse ids (LIFO): memory returns to its baseline after removals,
        // and per-symbol arrays stay dense.
        if let id = freeIDs.popLast() {
            kinds[Int(id)] = kind
            candidates.markIfTracked(id)
            return Symbol(id: id, kind: kind)
        }
        let id = Int32(kinds.count)
        kinds.append(kind)
        rows.append(Row())
        isBasic.append(false)
        columns.append([])
        absorbed.append(true)
        return Symbol(id: id, kind: kind)
    }

    /// Returns a symbol's id to the pool; it must be in no row.
    mutating func release(_ symbol: Symbol) {
        let i = Int(symbol.id)
        kinds[i] = nil
        rows[i] = Row()
        isBasic[i] = false
        columns[i] = []
        absorbed[i] = true
        candidates.markIfTracked(symbol.id)
        freeIDs.append(symbol.id)
    }

    func symbol(id: Int32) -> Symbol {
        Symbol(id: id, kind: kinds[Int(id)] ?? .external)
    }

    var symbolCapacity: Int { kinds.count }
    var liveSymbolCount: Int { kinds.count - freeIDs.count }

    // MARK: Rows

    func isBasic(_ s: Symbol) -> Bool { isBasic[Int(s.id)] }
    func row(_ s: Symbol) -> Row { rows[Int(s.id)] }

    /// Makes `basic` basic with `row`, indexing its cells. `fresh` marks the
    /// row as not absorbed anywhere yet (see ``absorbed``).
    mutating func setRow(_ basic: Symbol, _ row: Row, fresh: Bool = false) {
        let b = Int(basic.id)
        for cell in row.cells { columns[Int(cell.symbol.id)].insert(basic.id) }
        rows[b] = row
        isBasic[b] = true
        absorbed[b] = !fresh
    }

    /// Removes and returns the row of a basic symbol, unindexing its cells.
    mutating func removeRow(_ basic: Symbol) -> Row {
        let b = Int(basic.id)
        let row = rows[b]
        for cell in row.cells { columns[Int(cell.symbol.id)].remove(basic.id) }
        rows[b] = Row()
        isBasic[b] = false
        absorbed[b] = true
        return row
    }

    /// Replaces `symbol` by `row` (its new definition) in every row that
    /// contains it and in the objectives; records restricted rows that became
    /// infeasible (negative constant).
    ///
    /// - Complexity: O(Σ lengths of the rows containing `symbol`), not O(rows).
    mutating func substitute(_ symbol: Symbol, _ row: Row, infeasible: inout Set<Int32>) {
        let s = Int(symbol.id)
        let targets = columns[s]
        columns[s] = []
        substitutedRowCount += targets.count
        for b in targets {
            let bi = Int(b)
            // Why the row is moved out first: the merge updates `columns` as
            // cells appear and cancel, and `rows` must not be borrowed meanwhile.
            var target = rows[bi]
            rows[bi] = Row()
            target.addScaled(row, target.coefficient(of: symbol), skipping: symbol) { cell, change in
                // `symbol`'s own column was emptied above.
                if change > 0 { columns[Int(cell.id)].insert(b) } else if cell != symbol { columns[Int(cell.id)].remove(b) }
            }
            rows[bi] = target
            if kinds[bi] != .external && rows[bi].constant < 0 { infeasible.insert(b) }
        }
        var objectivesChanged = false
        for k in levels.indices {
            let coefficient = levels[k].coefficient(of: symbol)
            if coefficient != 0 {
                levels[k].addScaled(row, coefficient, skipping: symbol)
                objectivesChanged = true
            }
        }
        if let a = artificial {
            let coefficient = a.coefficient(of: symbol)
            if coefficient != 0 {
                var updated = a
                updated.addScaled(row, coefficient, skipping: symbol)
                artificial = updated
                objectivesChanged = true
            }
        }
        // Only the row's symbols (and `symbol`, now basic) changed in the
        // objectives, so only they can change status as entering candidates.
        if objectivesChanged {
            candidates.mark(symbol.id)
            candidates.mark(row)
        }
    }

    /// Leaving `leaving`, entering `entering`: solve the leaving row for the
    /// entering symbol and substitute it everywhere; the one pivot of the
    /// solver (simplex steps, removals, artificial variables).
    ///
    /// `keepingEntering: false` drops the entering symbol's new row instead
    /// of storing it: removing a constraint pivots its marker in only to
    /// delete the marker's row.
    /// - Complexity: O(Σ lengths of the rows containing `entering`).
    mutating func pivot(leaving: Symbol, entering: Symbol, infeasible: inout Set<Int32>, keepingEntering: Bool = true) {
        var row = removeRow(leaving)
        row.solve(for: entering, replacing: leaving)
        substitute(entering, row, infeasible: &infeasible)
        if keepingEntering { setRow(entering, row) }
        pivotCount += 1
    }

    /// Removes `symbol` from every row and objective (its value becomes 0).
    /// - Complexity: O(Σ lengths of the rows containing `symbol`).
    mutating func scrub(_ symbol: Symbol) {
        if isBasic(symbol) { _ = removeRow(symbol) }
        let s = Int(symbol.id)
        for b in columns[s] { _ = rows[Int(b)].remove(symbol) }
        columns[s] = []
        removeFromObjectives(symbol)
    }

    /// The parameter of an edit changes by `delta` where `plus` is the edit's
    /// error symbol: every row's constant moves by its coefficient of `plus`
    /// (the basis stays; rows that turn infeasible are recorded for the dual
    /// simplex).
    /// - Complexity: O(rows containing `plus`).
    mutating func shiftEdit(_ plus: Symbol, by delta: Double, infeasible: inout Set<Int32>) {
        let p = Int(plus.id)
        if isBasic[p] {
            rows[p].constant -= delta
            if rows[p].constant < 0 { infeasible.insert(plus.id) }
            return
        }
        for b in columns[p] {
            let bi = Int(b)
            rows[bi].constant += rows[bi].coefficient(of: plus) * delta
            if kinds[bi] != .external && rows[bi].constant < 0 { infeasible.insert(b) }
        }
    }

    /// A row with every basic symbol replaced by its row (the relation's
    /// expression in terms of parametric symbols only).
    /// Why the definition's terms and the symbol table rather than a list of
    /// (symbol, coefficient): mapping the terms made an array per constraint.
    mutating func substituted(_ terms: [(variable: CassowaryVariable, coefficient: Double)], symbols: [Symbol],
                              constant: Double) -> Row {
        var row = Row(constant: constant)
        // Why reserve: a chain's new row gets a cell or two per term, and
        // growing from empty reallocated it twice.
        row.reserveCapacity(terms.count + 3)
        for (variable, coefficient) in terms {
            let symbol = symbols[variable.id]
            if isBasic(symbol) {
                absorbed[Int(symbol.id)] = true
                row.addScaled(rows[Int(symbol.id)], coefficient)
            } else {
                row.add(symbol, coefficient)
            }
        }
        return row
    }

    // MARK: Levels

    /// The index of a soft strength's level, creating it if needed.
    mutating func level(for strength: Double) -> Int {
        var lo = 0, hi = levelStrengths.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if levelStrengths[mid] == strength { return mid }
            if levelStrengths[mid] > strength { lo = mid + 1 } else { hi = mid }
        }
        levelStrengths.insert(strength, at: lo)
        levels.insert(Row(), at: lo)
        levelUsers.insert(0, at: lo)
        return lo
    }

    func existingLevel(for strength: Double) -> Int? {
        levelStrengths.firstIndex(of: strength)
    }

    // MARK: Changing the objectives (each marks what it changes)

    /// Adds `coefficient × symbol` to level `k`.
    mutating func addToLevel(_ k: Int, _ symbol: Symbol, _ coefficient: Double) {
        _ = levels[k].add(symbol, coefficient)
        candidates.mark(symbol.id)
    }

    /// Adds `factor × row` to level `k`.
    mutating func addToLevel(_ k: Int, _ row: Row, _ factor: Double) {
        levels[k].addScaled(row, factor)
        candidates.mark(row)
    }

    /// Removes `symbol` from every objective.
    mutating func removeFromObjectives(_ symbol: Symbol) {
        for k in levels.indices { _ = levels[k].remove(symbol) }
        if artificial != nil { _ = artificial?.remove(symbol) }
        candidates.mark(symbol.id)
    }

    /// One more soft constraint uses level `k`.
    mutating func addLevelUser(_ k: Int) { levelUsers[k] += 1 }

    /// One soft constraint of level `k` is gone; the level goes with its last.
    mutating func removeLevelUser(_ k: Int) {
        levelUsers[k] -= 1
        if levelUsers[k] == 0 { removeLevel(at: k) }
    }

    /// Drops level `k` (its last constraint was removed).
    private mutating func removeLevel(at k: Int) {
        levelStrengths.remove(at: k)
        levels.remove(at: k)
        levelUsers.remove(at: k)
        candidates.stale = true
    }

    /// Appends an objective below every level (an ambiguity probe) ...
    mutating func pushProbeObjective(_ row: Row) {
        levels.append(row)
        candidates.stale = true
    }

    /// ... and removes it.
    mutating func popProbeObjective() {
        levels.removeLast()
        candidates.stale = true
    }

    /// Sets or clears the artificial objective (above every level) and its
    /// zero threshold.
    mutating func setArtificial(_ row: Row?, floor: Double = 0) {
        if let old = artificial { candidates.mark(old) }
        artificial = row
        artificialFloor = floor
        if let row { candidates.mark(row) }
    }
}
