// Why one file over 600 lines: the tableau's storage is `private(set)` so
// that only the methods here change it (the column index, ranks and journal
// cannot drift from the rows); the ranking, the flattening and the undo
// journal write that storage, so they live here, each under its MARK.

/// The simplex tableau, with a column index.
///
/// - `rows[id]` is the row of basic symbol `id` (`isBasic[id]` says whether it is one).
/// - Restricted rows and the objectives are in solved form: they contain
///   nonbasic symbols only (and no externals), which is all the simplex reads.
/// - A row of an external (unrestricted) variable may also contain other
///   **basic externals**, ranked: `rank[b] < rank[u]` for every basic external
///   `b` in the row of `u`, so these rows form a DAG and values are found by
///   evaluating it (``Tableau/values(of:)``). Why: in solved form a chain of
///   positions (`y_k = y_{k-1} + h_{k-1} + 8`) whose heights each carry a
///   slack writes `y_k` as the sum of every slack above it, O(k) cells, so a
///   table of R content-sized rows filled in to O(R²) cells (evidence:
///   docs/measurements.md#m-cassowary-costs). Unrestricted rows never bound
///   a ratio test or an objective, so the simplex never needs them flat; a
///   new constraint that names a basic external expands it only as far as it
///   must to find a subject (``CassowarySolver/insert(_:as:edit:explain:)``).
///   docs/design/cassowary-dag.md has the design and its evidence.
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
    /// set by ``setRow(_:_:owner:)``. A required equality whose subject row was
    /// never absorbed is the only row that depends on it, so it can be removed
    /// by dropping that row.
    private(set) var absorbed: [Bool] = []
    /// A topological rank of each basic external: greater than the rank of
    /// every basic external in its row (0 for other symbols).
    private(set) var rank: [Int32] = []
    /// Scratch for ``rankForDefinition(_:by:budget:)`` (ranks to restore, rows to visit).
    private var raised: [(id: Int32, old: Int32)] = []
    private var work: [Int32] = []
    /// The constraint whose required equality set a basic symbol's row, while
    /// that row is its alone (set with the row, -1 otherwise). Why beside
    /// ``absorbed``: a symbol can lose its row (a re-orientation, a removal)
    /// and get a new one from another constraint; the first constraint must
    /// then not drop the second's row.
    /// Why `Int32`: a symbol each (a million at R = 10^5); an id beyond it
    /// (four billion constraints made) is stored as -1, not owned, which
    /// only sends its removal down the general path.
    private(set) var owner: [Int32] = []

    /// Strengths of the objective levels, strongest first (all soft).
    /// (The levels and the artificial objective change only through the
    /// methods under "Changing the objectives" and ``substitute(_:_:infeasible:)``,
    /// which mark what they change in ``candidates``.)
    private(set) var levelStrengths: [Double] = []
    private(set) var levels: [ObjectiveRow] = []
    /// How many soft constraints use each level; a level is dropped at zero.
    private(set) var levelUsers: [Int] = []
    /// The artificial objective, above every level, while adding a row that
    /// has no subject.
    private(set) var artificial: ObjectiveRow?
    /// The artificial objective's zero threshold, fixed from the row as added
    /// (`CassowarySolver.enteringSymbol`).
    private(set) var artificialFloor = 0.0
    /// The symbols that may enter the primal simplex. Not `private(set)`
    /// only because its refresh lives with it (EnteringCandidates.swift, an
    /// extension of `Tableau`); nothing outside the tableau changes it.
    var candidates = EnteringCandidates()
    /// What the changes overwrote, while a row is added through an
    /// artificial variable (``beginJournal()``, ``rollBack()``): nil otherwise,
    /// and then the only cost of journaling is that test.
    private var journal: TableauJournal?
    /// Kept buffers of ``flattened(_:)`` (a dense row by symbol id and a
    /// heap), so that a flattening allocates nothing once they have grown.
    private var flattening = FlatteningScratch()
    /// Kept buffers for the row of a constraint being added: the row is
    /// built in one (``unexpanded(_:symbols:constant:markers:)``), expanded
    /// through the other (``expand(_:in:)``), and stored at its length, its
    /// buffer handed back (``solveExactly(_:for:)``, ``storeExactly(_:)``).
    /// Why: built in fresh buffers, each new row cost an allocation and a
    /// free more than the row it leaves, and an expansion another (about a
    /// tenth of the load of a grid; docs/measurements.md#m-2026-11-27-build-buffers).
    /// Each holds at most the longest row built so far. `mergeCells` is
    /// also where a substitution merges each row it rewrites
    /// (``substitute(_:_:infeasible:)``).
    private var buildCells: [Row.Cell] = []
    private var mergeCells: [Row.Cell] = []

    /// Simplex pivots done since creation (a machine-independent cost measure).
    private(set) var pivotCount = 0
    /// Rows rewritten by substitution since creation: what pivots cost, as
    /// a count (tests compare entering rules by it).
    private(set) var substitutedRowCount = 0
    /// Ranks moved by the re-ranking searches (raised or lowered, kept or
    /// restored) since creation: their work, as a count (tests bound it).
    private(set) var rankMoves = 0
    /// Rows re-solved by ``reorient(_:awayFrom:)`` since creation (a count
    /// the tests bound: a search that turns rows back and forth shows here).
    private(set) var reorientCount = 0
    /// Artificial adds undone (``rollBack()``) since creation; not undone
    /// itself, so tests can tell that the undo ran.
    private(set) var rollBackCount = 0
    /// Changes of the tableau's shape since creation: of a row's cells, of
    /// which symbols are basic, of the symbols themselves; not of constants
    /// alone, which is all an edit's shift changes. What is kept for one
    /// shape (KeptShapes.swift) is valid while this stays the same. Each
    /// method below that changes the shape adds one.
    private(set) var shapeVersion = 0
    /// Changes of what an evaluation of external symbols reads
    /// (``EvaluationPlan``): each external row's cells of basic symbols,
    /// with their coefficients, and which symbols exist. It moves with
    /// ``shapeVersion`` except across a pivot between two restricted
    /// symbols (every pivot of the simplex and of the dual simplex), which
    /// ``pivot(leaving:entering:infeasible:keepingEntering:)`` shows leaves
    /// all of that as it was. Why: a resize whose dual simplex pivots
    /// changed the shape every time, so a random layout's resize walked
    /// every row's cells from scattered buffers (half of its misses of the
    /// caches at 10^4 views, and a resize that grew as size^1.27) although
    /// the plan of its evaluation was still right.
    private(set) var evaluationVersion = 0

    /// Counts a change of the shape (both versions).
    @inline(__always)
    private mutating func changeShape() {
        shapeVersion &+= 1
        evaluationVersion &+= 1
    }
    /// Which tableau of its solver this is: a rebuild makes a new tableau,
    /// whose ``shapeVersion`` starts again at 0, with the next epoch. With
    /// ``shapeVersion`` it names a shape over the solver's life, for the
    /// solver's ``EvaluationScratch``, which outlives a rebuild. (Why not an
    /// object's identity: a rebuild would allocate it, and the corpus's
    /// add-and-remove screens rebuild a dozen times a load.)
    var epoch = 0
    /// The edits' columns kept for ``shiftEdit(_:by:infeasible:)``.
    private var editColumns = EditColumns()
    /// Whether shifts and evaluations keep what they reuse at one shape
    /// (KeptShapes.swift); tests turn it off to compare with the walk.
    var keepsShapes = true
    /// The fewest symbols at which shapes are kept. Why a floor: what is
    /// kept pays off where the tableau outgrows the caches; below about a
    /// thousand symbols (the real screens of the corpus have a few hundred)
    /// building it cost more than it saved: the A/B gate measured resizes
    /// 11.5% slower over the corpus's 266 cases, with 20 more allocations
    /// each, while the families at 100 rows (1,600 symbols and up) gained
    /// 30-40% (docs/measurements.md#m-2026-11-28-kept-shapes). Tests lower it.
    var keptShapesFloor = 1024
    /// Whether this tableau keeps shapes now.
    var keepsShapesNow: Bool { keepsShapes && kinds.count >= keptShapesFloor }

    /// An empty tableau to rebuild into, carrying what outlives a rebuild:
    /// the next ``epoch`` and the kept-shapes settings.
    func successor() -> Tableau {
        var next = Tableau()
        next.epoch = epoch &+ 1
        next.keepsShapes = keepsShapes
        next.keptShapesFloor = keptShapesFloor
        return next
    }
    /// Shifts made through a kept column since creation (a count tests read).
    private(set) var keptColumnShifts = 0

    // MARK: Symbols

    /// Room for `count` symbols in all without the per-symbol arrays growing.
    /// Why: a load makes its symbols one at a time, and seven arrays that
    /// double were copied about once over in all on the way (at 10^5
    /// self-sizing rows, 2.4 million symbols, 44 bytes each). Room that is
    /// never used is address space, not memory: it is not written.
    /// - Complexity: O(symbols held) (a copy, once).
    mutating func reserveSymbols(_ count: Int) {
        kinds.reserveCapacity(count)
        rows.reserveCapacity(count)
        isBasic.reserveCapacity(count)
        columns.reserveCapacity(count)
        absorbed.reserveCapacity(count)
        rank.reserveCapacity(count)
        owner.reserveCapacity(count)
    }

    mutating func makeSymbol(_ kind: Symbol.Kind) -> Symbol {
        changeShape()
        // Why reuse ids (LIFO): memory returns to its baseline after removals,
        // and per-symbol arrays stay dense.
        if let id = freeIDs.popLast() {
            if journal != nil {
                journal?.entries.append(.tookFreeID(id))
                journal?.entries.append(.symbol(id, kinds[Int(id)], rank: rank[Int(id)]))
            }
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
        rank.append(0)
        owner.append(-1)
        return Symbol(id: id, kind: kind)
    }

    /// `count` new symbols of one kind, with the ids ``makeSymbol(_:)`` would
    /// give them one at a time (freed ids first, last freed first, then new
    /// ones in order). Why: a load makes a symbol for each of its variables
    /// (800,000 at the 10^5 grid) before its first row, and one call per
    /// symbol appended to seven arrays one element at a time.
    /// - Complexity: O(count).
    mutating func makeSymbols(_ kind: Symbol.Kind, count: Int) -> [Symbol] {
        changeShape()
        var made: [Symbol] = []
        made.reserveCapacity(max(0, count))
        // Freed ids (and any change under a journal) take the one-at-a-time path.
        while made.count < count, !freeIDs.isEmpty || journal != nil { made.append(makeSymbol(kind)) }
        let fresh = count - made.count
        guard fresh > 0 else { return made }
        let first = kinds.count
        kinds.append(contentsOf: repeatElement(Optional(kind), count: fresh))
        rows.append(contentsOf: repeatElement(Row(), count: fresh))
        isBasic.append(contentsOf: repeatElement(false, count: fresh))
        columns.append(contentsOf: repeatElement(ColumnSet(), count: fresh))
        absorbed.append(contentsOf: repeatElement(true, count: fresh))
        rank.append(contentsOf: repeatElement(0, count: fresh))
        owner.append(contentsOf: repeatElement(-1, count: fresh))
        for id in first..<first + fresh { made.append(Symbol(id: Int32(truncatingIfNeeded: id), kind: kind)) }
        return made
    }

    /// Returns a symbol's id to the pool; it must be in no row.
    mutating func release(_ symbol: Symbol) {
        changeShape()
        let i = Int(symbol.id)
        if journal != nil {
            journal?.entries.append(.symbol(symbol.id, kinds[i], rank: rank[i]))
            logRow(i)
            journal?.entries.append(.column(symbol.id, columns[i]))
        }
        kinds[i] = nil
        rows[i] = Row()
        isBasic[i] = false
        columns[i] = []
        absorbed[i] = true
        rank[i] = 0
        owner[i] = -1
        candidates.markIfTracked(symbol.id)
        freeIDs.append(symbol.id)
        if journal != nil { journal?.entries.append(.freedID) }
    }

    func symbol(id: Int32) -> Symbol {
        Symbol(id: id, kind: kinds[Int(id)] ?? .external)
    }

    var symbolCapacity: Int { kinds.count }
    var liveSymbolCount: Int { kinds.count - freeIDs.count }

    // MARK: Rows

    func isBasic(_ s: Symbol) -> Bool { isBasic[Int(s.id)] }
    func row(_ s: Symbol) -> Row { rows[Int(s.id)] }

    /// Makes `basic` basic with `row`, indexing its cells. An `owner` (a
    /// constraint id) marks the row as that constraint's alone, not absorbed
    /// anywhere yet (see ``absorbed`` and ``owner``).
    mutating func setRow(_ basic: Symbol, _ row: Row, owner rowOwner: Int? = nil) {
        changeShape()
        let b = Int(basic.id)
        if journal == nil {
            for cell in row.cells { columns[Int(cell.symbol.id)].insert(basic.id) }
        } else {
            logRow(b)
            for cell in row.cells { insert(basic.id, intoColumn: cell.symbol.id) }
        }
        rows[b] = row
        isBasic[b] = true
        absorbed[b] = rowOwner == nil
        owner[b] = rowOwner.flatMap { Int32(exactly: $0) } ?? -1
    }

    /// Removes and returns the row of a basic symbol, unindexing its cells.
    mutating func removeRow(_ basic: Symbol) -> Row {
        changeShape()
        let b = Int(basic.id)
        let row = rows[b]
        if journal == nil {
            for cell in row.cells { columns[Int(cell.symbol.id)].remove(basic.id) }
        } else {
            logRow(b)
            for cell in row.cells { remove(basic.id, fromColumn: cell.symbol.id) }
        }
        rows[b] = Row()
        isBasic[b] = false
        absorbed[b] = true
        owner[b] = -1
        return row
    }

    /// Replaces `symbol` by `row` (its new definition) in every row that
    /// contains it and in the objectives; records restricted rows that became
    /// infeasible (negative constant).
    ///
    /// - Complexity: O(Σ lengths of the rows containing `symbol`), not O(rows).
    mutating func substitute(_ symbol: Symbol, _ row: Row, infeasible: inout Set<Int32>) {
        changeShape()
        let s = Int(symbol.id)
        let targets = columns[s]
        let journaling = journal != nil
        if journaling { journal?.entries.append(.column(symbol.id, targets)) }
        columns[s] = []
        substitutedRowCount += targets.count
        // Why through a kept buffer: the merge is copied back into the
        // target row's own buffer when it has room, where a fresh buffer for
        // every rewritten row was an allocation and a free (225,580 in eight
        // resizes of 10^4 random views, 30,742 now), and the rows stay where
        // they are in memory (docs/measurements.md#m-2026-11-29-most-infeasible).
        // Taken out of the tableau while in use, as the dual's buffers are.
        var scratch: [Row.Cell] = []
        swap(&scratch, &mergeCells)
        defer { swap(&scratch, &mergeCells) }
        for b in targets {
            let bi = Int(b)
            // Why the row is moved out first: the merge updates `columns` as
            // cells appear and cancel, and `rows` must not be borrowed meanwhile.
            if journaling { logRow(bi) }
            var target = rows[bi]
            rows[bi] = Row()
            if journaling {
                target.addScaled(row, target.coefficient(of: symbol), skipping: symbol, scratch: &scratch) { cell, change in
                    if change > 0 { insert(b, intoColumn: cell.id) } else if cell != symbol { remove(b, fromColumn: cell.id) }
                }
            } else {
                target.addScaled(row, target.coefficient(of: symbol), skipping: symbol, scratch: &scratch) { cell, change in
                    // `symbol`'s own column was emptied above.
                    if change > 0 { columns[Int(cell.id)].insert(b) } else if cell != symbol { columns[Int(cell.id)].remove(b) }
                }
            }
            rows[bi] = target
            if kinds[bi] != .external && rows[bi].constant < 0 { infeasible.insert(b) }
        }
        var objectivesChanged = false
        for k in levels.indices {
            let coefficient = levels[k].coefficient(of: symbol)
            if coefficient != 0 {
                if journal != nil { logObjective(k, symbol, row) }
                levels[k].addScaled(row, coefficient, skipping: symbol)
                objectivesChanged = true
            }
        }
        if let coefficient = artificial?.coefficient(of: symbol), coefficient != 0 {
            artificial?.addScaled(row, coefficient, skipping: symbol)
            objectivesChanged = true
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
    ///
    /// A pivot between two restricted symbols whose leaving row holds only
    /// nonbasic restricted symbols, and that no row names (solved form, as
    /// the invariants have it), keeps ``evaluationVersion``. Why that is
    /// sound: the only cells an evaluation reads are the external rows'
    /// cells of basic symbols. No row names `leaving`, so none loses a
    /// term when it leaves the basis; `entering` was nonbasic, so the cell
    /// that each row containing it loses was no term; what replaces it is
    /// `leaving`'s row solved for `entering`, whose symbols are all
    /// nonbasic after the pivot, so no term is added, and the merge keeps
    /// every other cell, coefficient and order (only constants move, and
    /// an evaluation reads those live). The same sums, bit for bit.
    /// - Complexity: O(Σ lengths of the rows containing `entering`).
    mutating func pivot(leaving: Symbol, entering: Symbol, infeasible: inout Set<Int32>, keepingEntering: Bool = true) {
        let evaluation = evaluationVersion
        let keepsEvaluation = keepingEntering && leaving.kind != .external && entering.kind != .external
            && columns[Int(leaving.id)].isEmpty
        var row = removeRow(leaving)
        let solvedForm = keepsEvaluation && row.cells.allSatisfy { $0.symbol.kind != .external && !isBasic[Int($0.symbol.id)] }
        row.solve(for: entering, replacing: leaving)
        substitute(entering, row, infeasible: &infeasible)
        if keepingEntering { setRow(entering, row) }
        if solvedForm { evaluationVersion = evaluation }
        pivotCount += 1
    }

    /// Removes `symbol` from every row and objective (its value becomes 0).
    /// - Complexity: O(Σ lengths of the rows containing `symbol`).
    mutating func scrub(_ symbol: Symbol) {
        changeShape()
        if isBasic(symbol) { _ = removeRow(symbol) }
        let s = Int(symbol.id)
        for b in columns[s] {
            logRow(Int(b))
            _ = rows[Int(b)].remove(symbol)
        }
        if journal != nil { journal?.entries.append(.column(symbol.id, columns[s])) }
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
            logRow(p)
            rows[p].constant -= delta
            if rows[p].constant < 0 { infeasible.insert(plus.id) }
            return
        }
        // The column kept from an earlier shift at this shape, if any (see
        // KeptShapes.swift): it is built on the second shift at one shape.
        guard keepsShapesNow else {
            shiftThroughColumn(plus, by: delta, infeasible: &infeasible)
            return
        }
        let k = editColumns.index(of: plus.id, version: shapeVersion)
        if editColumns[k].version != shapeVersion {
            editColumns[k] = EditColumn(symbol: plus.id, version: shapeVersion)
        } else if !editColumns[k].built {
            editColumns[k] = keptColumn(of: plus)
        }
        if editColumns[k].built {
            keptColumnShifts += 1
            let column = editColumns[k]
            for j in column.rows.indices {
                let bi = Int(column.rows[j])
                logRow(bi)
                rows[bi].constant += column.coefficients[j] * delta
                if column.restricted[j] && rows[bi].constant < 0 { infeasible.insert(column.rows[j]) }
            }
            return
        }
        shiftThroughColumn(plus, by: delta, infeasible: &infeasible)
    }

    /// ``shiftEdit(_:by:infeasible:)`` of a nonbasic `plus` through its
    /// column index and each row's cells.
    private mutating func shiftThroughColumn(_ plus: Symbol, by delta: Double, infeasible: inout Set<Int32>) {
        for b in columns[Int(plus.id)] {
            let bi = Int(b)
            logRow(bi)
            rows[bi].constant += rows[bi].coefficient(of: plus) * delta
            if kinds[bi] != .external && rows[bi].constant < 0 { infeasible.insert(b) }
        }
    }

    /// The rows containing `plus`, ascending, with their coefficients of it
    /// (an ``EditColumn`` for the current shape).
    /// Why ascending: the shifts then read `rows` in address order.
    /// - Complexity: O(k log k) for the k rows containing `plus`.
    private func keptColumn(of plus: Symbol) -> EditColumn {
        var column = EditColumn(symbol: plus.id, version: shapeVersion, built: true)
        column.rows = columns[Int(plus.id)].sorted()
        column.coefficients.reserveCapacity(column.rows.count)
        column.restricted.reserveCapacity(column.rows.count)
        for b in column.rows {
            column.coefficients.append(rows[Int(b)].coefficient(of: plus))
            column.restricted.append(kinds[Int(b)] != .external)
        }
        return column
    }

    /// The row of a definition's terms as they are, basic or not (see the
    /// type's notes: a basic external is expanded only when needed).
    /// Why the definition's terms and the symbol table rather than a list of
    /// (symbol, coefficient): mapping the terms made an array per constraint.
    /// `markers`: the slack and error cells the caller will add (0...2).
    ///
    /// A basic external whose row is a constant alone (`super.x = 0`) is
    /// expanded at once (``expand(_:in:)``'s arithmetic: its constant times
    /// the coefficient), not kept as a cell. Why: every row of a layout that
    /// starts at the container's edge named it (20,000 rows of a grid at
    /// R = 10^4), so its column was a hash set that half of all row changes
    /// updated; a constant row never changes (no cell to substitute, no
    /// parametric external to re-orient by, no marker to edit) until its
    /// constraint is removed, which then rebuilds because the row is marked
    /// absorbed, as any expansion marks it.
    mutating func unexpanded(_ terms: [(variable: CassowaryVariable, coefficient: Double)], symbols: [Symbol],
                             constant: Double, markers: Int) -> Row {
        // Built in a kept buffer, stored later at its length (``buildCells``).
        var row = Row(constant: constant, reusing: &buildCells)
        row.reserveCapacity(terms.count + markers)
        for (variable, coefficient) in terms {
            let symbol = symbols[variable.id]
            let b = Int(symbol.id)
            if symbol.kind == .external && isBasic[b] && rows[b].cells.isEmpty && coefficient != 0 {
                logRow(b)
                absorbed[b] = true
                row.constant += coefficient * rows[b].constant
                continue
            }
            row.add(symbol, coefficient)
        }
        return row
    }

    // MARK: The DAG of external rows: expansion and flattening

    /// Whether ``reorient(_:awayFrom:)`` may solve a row for `symbol` while
    /// `row` looks for a subject: a parametric external that `row` does not name.
    func reorients(toward symbol: Symbol, awayFrom row: Row) -> Bool {
        symbol.kind == .external && !isBasic[Int(symbol.id)] && !row.index(of: symbol).found
    }

    /// Whether `symbol` is a basic external (a node of the DAG of external rows).
    func isBasicExternal(_ symbol: Symbol) -> Bool {
        symbol.kind == .external && isBasic[Int(symbol.id)]
    }

    /// The basic external of highest rank in a row, if any.
    /// (`mutating` only for the caller's sake, here and in
    /// ``nextExpansion(in:)``: called on the tableau of a solver being
    /// changed, a non-mutating call copied the whole tableau struct first,
    /// retaining each of its arrays, on every step of a subject search.)
    /// - Complexity: O(cells).
    mutating func highestRankedBasicExternal(in row: Row) -> Symbol? {
        var best: Symbol?
        for cell in row.cells where isBasicExternal(cell.symbol) {
            if best.map({ rank[Int(cell.symbol.id)] > rank[Int($0.id)] }) ?? true { best = cell.symbol }
        }
        return best
    }

    /// The basic external of `row` to expand next while looking for a
    /// subject: of those whose own row names a parametric external that
    /// `row` does not name (one ``reorient(_:awayFrom:)`` can use), the one
    /// of highest rank; else the highest ranked. Why: expanding a row that
    /// holds a parametric external offers a subject at once (in a chain,
    /// `h_2 = y_3 - y_2 - 8` offers `y_3`), where expanding the highest rank
    /// first would walk down the chain to its root, the fill-in again; among
    /// equals, highest first lets cancellations happen before expanding.
    /// - Complexity: O(cells × length of their rows × log(cells)).
    mutating func nextExpansion(in row: Row) -> Symbol? {
        var best: Symbol?
        var bestOffers = false
        for cell in row.cells where isBasicExternal(cell.symbol) {
            let offers = rows[Int(cell.symbol.id)].cells.contains { reorients(toward: $0.symbol, awayFrom: row) }
            guard let current = best else {
                best = cell.symbol
                bestOffers = offers
                continue
            }
            if (offers ? 1 : 0, rank[Int(cell.symbol.id)]) > (bestOffers ? 1 : 0, rank[Int(current.id)]) {
                best = cell.symbol
                bestOffers = offers
            }
        }
        return best
    }

    /// Re-solves basic external `b`'s row for a parametric external in it
    /// that the new row `row` does not name (the one in the fewest rows, ties
    /// by id), so that `b` becomes parametric: `row`, which names `b`, can
    /// then take `b` itself as its subject instead of copying `b`'s row.
    /// Undone (false) if `b`'s row offers no such external or the re-solved
    /// row would close a cycle.
    ///
    /// Why: a chain built from its far end (`y_k = y_{k+1} - h_k - 8`, the
    /// top free) and then tied to the container at its root cannot take a
    /// subject near the root without re-orienting: copying rows instead
    /// hands each row's slack on to the next definition, O(R) cells each.
    /// With one re-orientation per new row every definition stays local,
    /// whatever the insertion order.
    ///
    /// Why not toward an external that `row` names: once `b`'s row is solved
    /// for `p`, `row` names both `b` and `p`, whose row names `b`, so `b`
    /// cannot be its subject (a cycle), and every candidate that failed
    /// before still fails (what the row's basic externals reach only grows,
    /// by `p`). Allowed, the search turned `b` and `p` back and forth until
    /// its step limit: `row_k.width = 2 × row_k.height` did that twelve times
    /// on every row of the alternating grid, 130,000 re-orientations at
    /// R = 10^4, 12% of the load (docs/measurements.md#m-2026-11-27-reorient).
    /// - Complexity: O(length of `b`'s row × log(length of `row`) + rows re-ranked).
    mutating func reorient(_ b: Symbol, awayFrom row: Row) -> Bool {
        var best: (count: Int, symbol: Symbol)?
        for cell in rows[Int(b.id)].cells where reorients(toward: cell.symbol, awayFrom: row) {
            let count = columns[Int(cell.symbol.id)].count
            if best.map({ (count, cell.symbol.id) < ($0.count, $0.symbol.id) }) ?? true { best = (count, cell.symbol) }
        }
        guard let p = best?.symbol else { return false }
        let wasAbsorbed = absorbed[Int(b.id)], previousOwner = owner[Int(b.id)]
        // Why the row is not kept aside for the failure path: a second
        // reference to its cells made any change copy them (an allocation,
        // a copy and a free per re-orientation).
        var solved = removeRow(b)
        // The relation is 0 = row - b; the ranking reads only the basic
        // externals of the row it is given, and `b` is no longer basic, so
        // it is ranked by the row as it is, and the row is turned in place
        // (``Row/solve(for:replacing:)``) only once the ranks allow it.
        guard rankForDefinition(p, by: solved) else {
            setRow(b, solved)
            absorbed[Int(b.id)] = wasAbsorbed
            owner[Int(b.id)] = previousOwner
            return false
        }
        solved.solve(for: p, replacing: b)
        setRow(p, solved)
        reorientCount += 1
        return true
    }

    /// Replaces basic external `b` in `row` by its row (one level), marking
    /// `b`'s row as absorbed (copied).
    /// - Complexity: O(length of `row` + length of `b`'s row).
    mutating func expand(_ b: Symbol, in row: inout Row) {
        let coefficient = row.coefficient(of: b)
        guard coefficient != 0 else { return }
        logRow(Int(b.id))
        absorbed[Int(b.id)] = true
        row.addScaled(rows[Int(b.id)], coefficient, skipping: b, through: &mergeCells)
    }

    /// A new constraint's row solved for `subject`, in a buffer of its
    /// length; the buffer it was built in is kept for the next.
    /// - Complexity: O(cells).
    mutating func solveExactly(_ row: inout Row, for subject: Symbol) {
        row.solveExactly(for: subject, handingBack: &buildCells)
    }

    /// A new constraint's row moved to a buffer of its length before it is
    /// stored; the buffer it was built in is kept for the next.
    /// - Complexity: O(cells).
    mutating func storeExactly(_ row: inout Row) {
        row.storeExactly(handingBack: &buildCells)
    }

    /// The row with every basic external expanded, highest rank first, so
    /// that each is expanded once and cancellations happen before expanding
    /// (a chain's `y_3 - y_2` is `29 + s_2 - e_2`, not both chains down to
    /// the root): the row in nonbasic symbols only, as solved form has it.
    ///
    /// Why a dense accumulator and a heap of the basic externals still to
    /// expand, not merges into the sorted row: a merge costs the row's
    /// length, and a row can gather many low-ranked externals before it
    /// reaches them. A row of equal widths closed at its far end
    /// (`v_N.right = container.right - 16`) expands the chain of lefts from
    /// the top, and every `width_k` (rank 2) waits in the row until the
    /// chain is done: O(N) cells merged N times, O(N²) (evidence:
    /// docs/design/cassowary-dag.md, "Flattening in one pass"). The
    /// sums are the merges' own (the same expansions in the same order, the
    /// same zero rule), so the result is the same row.
    /// - Complexity: O(Σ lengths of the rows expanded × log(expansions)
    ///   + cells of the result × log), the rows that the result really
    ///   depends on.
    mutating func flattened(_ row: Row) -> Row {
        var sum = flattening.accumulator
        var heap = flattening.heap
        flattening = FlatteningScratch()
        // Why the ranks bound once: a method passed as the order captured a
        // copy of the whole tableau (a retain and release of each of its
        // arrays) at every push and pop. The ranks do not change here.
        let ranks = rank
        let expandsBefore = { (a: Int32, b: Int32) in Self.expandsBefore(a, b, ranks: ranks) }
        sum.constant = row.constant
        for cell in row.cells where sum.add(cell.symbol, cell.coefficient) > 0 && isBasicExternal(cell.symbol) {
            heap.push(cell.symbol.id, by: expandsBefore)
        }
        while let b = heap.pop(by: expandsBefore) {
            let symbol = self.symbol(id: b)
            let coefficient = sum.coefficient(of: symbol)
            // Cancelled since it was queued, or queued twice: nothing to expand.
            guard coefficient != 0 else { continue }
            logRow(Int(b))
            absorbed[Int(b)] = true
            let definition = rows[Int(b)]
            sum.constant += coefficient * definition.constant
            sum.remove(symbol)
            for cell in definition.cells where sum.add(cell.symbol, coefficient * cell.coefficient) > 0 && isBasicExternal(cell.symbol) {
                heap.push(cell.symbol.id, by: expandsBefore)
            }
        }
        let result = Row(constant: sum.constant, cells: sum.cells)
        sum.removeAll()
        heap.removeAll()
        flattening = FlatteningScratch(accumulator: sum, heap: heap)
        return result
    }

    /// The order of the heap of ``flattened(_:)``: highest rank first,
    /// lowest id among equal ranks (``highestRankedBasicExternal(in:)``'s order).
    private static func expandsBefore(_ a: Int32, _ b: Int32, ranks: [Int32]) -> Bool {
        let ra = ranks[Int(a)], rb = ranks[Int(b)]
        return ra != rb ? ra > rb : a < b
    }

    // MARK: Ranks

    /// Ranks parametric external `x` for a definition by `row` (the row that
    /// will be solved for it), if that keeps the external rows acyclic: `x`
    /// gets a rank above every basic external in `row` and below every
    /// external row that names it. In order of cost: a rank in the gap
    /// between the two; under the lowest row that names it when `row` is
    /// flat; otherwise the rows that depend on `x` raised above it, or the
    /// rows `row` depends on lowered below it, each search cut at a few rows
    /// first, then the raise up to `budget` rows. A search that reaches the
    /// other side (a basic external of `row` depending on `x`) means a
    /// cycle: the ranks are restored and false returned; so is running out
    /// of budget (the caller then expands further, which is always
    /// possible). On true the caller solves `row` for `x` and sets it
    /// (``setRow(_:_:owner:)``).
    ///
    /// Why ranks rather than a search per definition: a new definition at the
    /// end of a chain would search the whole chain, quadratic over a load;
    /// moving ranks is needed only where the order must change (Pearce and
    /// Kelly's dynamic topological order, both directions, without its bound).
    /// - Complexity: O(cells of `row` + column of `x` + rows moved).
    mutating func rankForDefinition(_ x: Symbol, by row: Row, budget: Int = 4096) -> Bool {
        // `x` must rank above every basic external of its row (`floor`) and
        // below every external row that names it (`ceiling`).
        var floor: Int32?
        for cell in row.cells where cell.symbol != x && isBasicExternal(cell.symbol) {
            floor = max(floor ?? Int32.min, rank[Int(cell.symbol.id)])
        }
        // Why gaps of `rankGap` rather than consecutive ranks: a definition
        // that lands between two ranked rows (a chain built from its far end,
        // then tied in the middle) then takes a rank in the gap instead of
        // raising every row above it.
        // (Every rank step checks for overflow and refuses the definition
        // rather than trap; the caller then expands further, always possible.)
        let (top, overflow) = (floor ?? 0).addingReportingOverflow(Self.rankGap)
        guard !overflow else { return false }
        // The common case, a variable no external row names at or below its
        // new rank (a fresh one): nothing to raise, no search, no allocation.
        if !columns[Int(x.id)].contains(where: { kinds[Int($0)] == .external && rank[Int($0)] <= top }) {
            rank[Int(x.id)] = top
            return true
        }
        var ceiling = Int32.max
        for u in columns[Int(x.id)] where kinds[Int(u)] == .external { ceiling = min(ceiling, rank[Int(u)]) }
        if let floor, Int64(ceiling) - Int64(floor) >= 2 {
            rank[Int(x.id)] = Int32(Int64(floor) + (Int64(ceiling) - Int64(floor)) / 2)
            return true
        }
        // A flat row names no basic external: nothing bounds `x` from below,
        // so it goes under the lowest row that names it (ranks may be
        // negative) and nothing is raised.
        guard floor != nil else {
            let (below, overflow) = ceiling.subtractingReportingOverflow(Self.rankGap)
            guard !overflow else { return false }
            rank[Int(x.id)] = below
            return true
        }
        // Both directions, the short searches first (Pearce and Kelly search
        // both sides): raising what depends on `x`, or lowering what the row
        // depends on so that `x` fits below its lowest dependent. Why: a chain
        // built from its far end has every row above a new definition to
        // raise and next to nothing below it (raising alone, the grid
        // reversed raised O(R) rows per definition, quadratic; evidence:
        // docs/design/cassowary-dag.md, "Any insertion order"), while in
        // generated order the raise finds a cycle at once where the lowering walks.
        let short = min(budget, Self.lowering)
        switch raiseForDefinition(x, by: row, to: top, budget: short) {
        case .placed: return true
        case .cycle: return false
        case .tooFar: break
        }
        switch lowerForDefinition(x, by: row, below: ceiling, budget: Self.lowering) {
        case .placed: return true
        case .cycle: return false
        case .tooFar: break
        }
        return budget > short && raiseForDefinition(x, by: row, to: top, budget: budget) == .placed
    }

    /// Ranks `x` at `top` and raises every external row that depends on it
    /// above it in turn; reaching a basic external of `row` means a cycle.
    /// A cycle, or more than `budget` rows to raise, restores the ranks.
    /// - Complexity: O(rows raised × their columns), at most `budget` rows.
    private mutating func raiseForDefinition(_ x: Symbol, by row: Row, to top: Int32, budget: Int) -> Lowering {
        // Why scratch buffers kept on the tableau: this path runs for every
        // re-ordering, and two arrays a call were allocations on a hot path.
        raised.removeAll(keepingCapacity: true)
        work.removeAll(keepingCapacity: true)
        raised.append((x.id, rank[Int(x.id)]))
        rank[Int(x.id)] = top
        work.append(x.id)
        var outcome = Lowering.placed
        search: while let s = work.popLast() {
            for u in columns[Int(s)] where kinds[Int(u)] == .external && rank[Int(u)] <= rank[Int(s)] {
                if u == x.id || row.index(of: symbol(id: u)).found {
                    outcome = .cycle
                    break search
                }
                if raised.count > budget {
                    outcome = .tooFar
                    break search
                }
                let (next, overflow) = rank[Int(s)].addingReportingOverflow(Self.rankGap)
                if overflow {
                    outcome = .tooFar
                    break search
                }
                raised.append((u, rank[Int(u)]))
                rank[Int(u)] = next
                work.append(u)
            }
        }
        rankMoves += raised.count
        if outcome != .placed {
            for (id, old) in raised.reversed() { rank[Int(id)] = old }
        }
        return outcome
    }

    /// How many rows ``lowerForDefinition(_:by:below:budget:)`` may lower
    /// before giving way to the raise: a few, since it is tried first for
    /// every definition that needs re-ranking.
    static let lowering = 64
    /// The spacing of new ranks (see ``rankForDefinition(_:by:budget:)``).
    static let rankGap: Int32 = 16

    /// Ranks `x` just below `limit` (the lowest rank of a row that names
    /// it) by lowering the basic externals of `row` that are not below it,
    /// and in turn the basic externals their rows name. Reaching a row that
    /// names `x` means the definition would close a cycle; that, or more
    /// than `budget` rows to lower, restores the ranks.
    /// - Complexity: O(rows lowered × their lengths), at most `budget` rows.
    private mutating func lowerForDefinition(_ x: Symbol, by row: Row, below limit: Int32, budget: Int) -> Lowering {
        let (target, overflow) = limit.subtractingReportingOverflow(Self.rankGap)
        let (underTarget, overflowUnder) = target.subtractingReportingOverflow(Self.rankGap)
        guard !overflow, !overflowUnder else { return .tooFar }
        raised.removeAll(keepingCapacity: true)
        work.removeAll(keepingCapacity: true)
        var outcome = Lowering.placed
        for cell in row.cells where cell.symbol != x && isBasicExternal(cell.symbol) && rank[Int(cell.symbol.id)] >= target {
            raised.append((cell.symbol.id, rank[Int(cell.symbol.id)]))
            rank[Int(cell.symbol.id)] = underTarget
            work.append(cell.symbol.id)
        }
        search: while let s = work.popLast() {
            let definition = rows[Int(s)]
            if definition.index(of: x).found {
                outcome = .cycle
                break search
            }
            if raised.count > budget {
                outcome = .tooFar
                break search
            }
            for cell in definition.cells where isBasicExternal(cell.symbol) && rank[Int(cell.symbol.id)] >= rank[Int(s)] {
                let (next, overflow) = rank[Int(s)].subtractingReportingOverflow(Self.rankGap)
                if overflow {
                    outcome = .tooFar
                    break search
                }
                raised.append((cell.symbol.id, rank[Int(cell.symbol.id)]))
                rank[Int(cell.symbol.id)] = next
                work.append(cell.symbol.id)
            }
        }
        rankMoves += raised.count
        guard outcome == .placed else {
            for (id, old) in raised.reversed() { rank[Int(id)] = old }
            return outcome
        }
        rank[Int(x.id)] = target
        return .placed
    }

    /// What a re-ranking search did: `x` placed, a cycle found, or more rows
    /// to move than its budget (the ranks then restored).
    enum Lowering { case placed, cycle, tooFar }

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
        levels.insert(ObjectiveRow(), at: lo)
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
        for k in levels.indices {
            if journal != nil { journal?.entries.append(.objective(level: k, symbol, levels[k].coefficient(of: symbol))) }
            _ = levels[k].remove(symbol)
        }
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
        levels.append(ObjectiveRow(row))
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
        artificial = row.map { ObjectiveRow($0) }
        artificialFloor = floor
        if let row { candidates.mark(row) }
    }

    // MARK: Journal (undo of an artificial add)

    /// Starts recording what every change overwrites, until ``endJournal()``
    /// or ``rollBack()``. Only the changes an artificial add makes are
    /// recorded (rows, columns, objective cells, symbols made and released,
    /// the free list, the counters); levels are not created or dropped and
    /// ranks do not change during one (its pivots enter and leave
    /// restricted symbols only), and the artificial objective is cleared.
    mutating func beginJournal() {
        journal = TableauJournal(symbolCount: kinds.count, pivotCount: pivotCount,
                                 substitutedRowCount: substitutedRowCount, artificialFloor: artificialFloor)
    }

    /// Keeps the changes and drops the journal.
    mutating func endJournal() { journal = nil }

    /// Undoes every change since ``beginJournal()``, newest first, and drops
    /// the journal: the rows, columns and objectives are as they were.
    /// - Complexity: O(entries + symbols made since the journal began).
    mutating func rollBack() {
        guard let journal else { return }
        changeShape()
        self.journal = nil
        rollBackCount += 1
        for entry in journal.entries.reversed() {
            switch entry {
            case let .row(id, row, basic, wasAbsorbed, rowOwner):
                let i = Int(id)
                rows[i] = row
                isBasic[i] = basic
                absorbed[i] = wasAbsorbed
                owner[i] = rowOwner
            case let .column(id, column):
                columns[Int(id)] = column
            case let .columnInserted(id, element):
                columns[Int(id)].remove(element)
            case let .columnRemoved(id, element):
                columns[Int(id)].insert(element)
            case let .columnListRemoved(id, element, position):
                columns[Int(id)].restore(element, at: Int(position))
            case let .objective(k, symbol, value):
                levels[k].setCoefficient(of: symbol, to: value)
            case let .objectiveConstant(k, value):
                levels[k].constant = value
            case let .symbol(id, kind, oldRank):
                kinds[Int(id)] = kind
                rank[Int(id)] = oldRank
            case let .tookFreeID(id):
                freeIDs.append(id)
            case .freedID:
                freeIDs.removeLast()
            }
        }
        let count = journal.symbolCount
        if kinds.count > count {
            let extra = kinds.count - count
            kinds.removeLast(extra)
            rows.removeLast(extra)
            isBasic.removeLast(extra)
            columns.removeLast(extra)
            absorbed.removeLast(extra)
            rank.removeLast(extra)
            owner.removeLast(extra)
        }
        // The entering candidates: ids past the count are gone; every
        // symbol whose objective cells, kind or basis were put back is
        // re-examined at the next refresh.
        candidates.forgetIDs(from: count)
        for entry in journal.entries {
            switch entry {
            case let .row(id, _, _, _, _), let .symbol(id, _, _):
                if Int(id) < count { candidates.markIfTracked(id) }
            case let .objective(_, symbol, _):
                if Int(symbol.id) < count { candidates.mark(symbol.id) }
            default:
                break
            }
        }
        pivotCount = journal.pivotCount
        substitutedRowCount = journal.substitutedRowCount
        artificial = nil
        artificialFloor = journal.artificialFloor
    }

    /// Records row `i`'s state before a change (while journaling).
    private mutating func logRow(_ i: Int) {
        guard journal != nil else { return }
        journal?.entries.append(.row(Int32(i), rows[i], isBasic: isBasic[i], absorbed: absorbed[i], owner: owner[i]))
    }

    /// Records objective level `k`'s cells that adding a multiple of `row`
    /// in place of `symbol` changes.
    private mutating func logObjective(_ k: Int, _ symbol: Symbol, _ row: Row) {
        journal?.entries.append(.objectiveConstant(level: k, levels[k].constant))
        journal?.entries.append(.objective(level: k, symbol, levels[k].coefficient(of: symbol)))
        for cell in row.cells {
            journal?.entries.append(.objective(level: k, cell.symbol, levels[k].coefficient(of: cell.symbol)))
        }
    }

    /// Adds row `b` to symbol `id`'s column (recording it while journaling).
    ///
    /// Why never inlined: it is the journaled path (an artificial variable's
    /// add), and inlined into ``substitute(_:_:infeasible:)`` its choice of
    /// entry made the unjournaled loop beside it 9% heavier (a random
    /// layout's resize +2.8% instructions).
    @inline(never)
    private mutating func insert(_ b: Int32, intoColumn id: Int32) {
        let i = Int(id)
        if journal != nil {
            if columns[i].undoNeedsValue(inserting: b) {
                journal?.entries.append(.column(id, columns[i]))
            } else if !columns[i].contains(b) {
                journal?.entries.append(.columnInserted(id, b))
            }
        }
        columns[i].insert(b)
    }

    /// Removes row `b` from symbol `id`'s column (recording it while journaling;
    /// never inlined, as ``insert(_:intoColumn:)``).
    @inline(never)
    private mutating func remove(_ b: Int32, fromColumn id: Int32) {
        let i = Int(id)
        if journal != nil {
            if columns[i].undoNeedsValue(removing: b) {
                journal?.entries.append(.column(id, columns[i]))
            } else if let position = columns[i].listPosition(of: b) {
                journal?.entries.append(.columnListRemoved(id, b, at: Int32(position)))
            } else if columns[i].contains(b) {
                journal?.entries.append(.columnRemoved(id, b))
            }
        }
        columns[i].remove(b)
    }
}

/// The buffers ``Tableau/flattened(_:)`` keeps between calls.
struct FlatteningScratch {
    var accumulator = ObjectiveRow()
    var heap = IDHeap()
}

