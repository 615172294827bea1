/// A native incremental Cassowary solver (Badros, Borning & Stuckey, TOCHI
/// 2001) with exact lexicographic priorities.
///
/// The tableau is kept in solved form with slack and error symbols; adding a
/// constraint substitutes it into the tableau and re-optimises with the
/// primal simplex; editing re-optimises with the dual simplex.
///
/// Differences from kiwi, each for a measured reason:
/// - **No dummy markers for required equalities.** kiwi puts a dummy symbol in
///   every required equality's row so it can be removed later; dummies never
///   leave the rows, so on a chain (the alternating grid) every row inherits
///   the dummies of all rows above it and the tableau grows quadratically.
///   Here a required equality is removed by rebuilding the tableau from the
///   remaining constraints (linear time); every other constraint keeps its
///   slack or error marker and is removed incrementally.
/// - **A column index**, so substitution visits only the rows that contain the
///   substituted symbol.
/// - **One objective row per strength**, compared lexicographically.
/// - **The entering symbol in the fewest rows**, ties by symbol id, and
///   Bland's rule after a run of degenerate pivots: a pivot costs the rows
///   it rewrites, and Bland's lowest id preferred the oldest, most shared
///   symbols (the container width's edit errors, in every row of a grid).
///   The same input always gives the same pivots and answer, and the simplex
///   cannot cycle. Candidates are kept up to date as the objectives change
///   (``EnteringCandidates``), not found by a scan per pivot.
///
/// Values are read after ``updateVariables()`` with ``value(of:)``.
public struct CassowarySolver: Sendable {
    struct EditRecord {
        var constraint: CassowaryConstraint
        var strength: Strength
        /// The currently suggested value.
        var value: Double
    }

    var tableau = Tableau()
    /// The external symbol of each variable, by variable id.
    var variableSymbols: [Symbol] = []
    /// The names given to ``makeVariable(_:)``, by variable id, for the
    /// variables that have one. Why not a name per variable: the layout
    /// adapter names only the container's, and 16 bytes for each unnamed
    /// variable was 2.1 MB of a grid load at R = 10^4
    /// (docs/measurements.md#m-2026-11-27-small-items).
    var variableNames: [Int: String] = [:]
    var values: [Double] = []
    /// Buffers for ``updateVariables()``.
    var evaluation = EvaluationScratch()
    /// Buffers for ``dualOptimize(_:)``, kept so that a resize allocates
    /// nothing for them once they have grown.
    var dualScratch = DualScratch()
    /// Dual simplex runs that queued their rows in the heap (tests read it).
    var dualHeapRuns = 0
    /// Dual simplex runs that fell back to the lowest id (Bland's rule), and
    /// the pivots after which a run does (nil: eight a waiting row plus 64;
    /// tests set it to reach the fallback).
    var dualBlandRuns = 0
    var dualPivotsBeforeBland: Int?
    var records = DenseTable<ConstraintRecord>()
    /// The terms of every record (``ConstraintRecord/termStart``).
    var terms = TermArena()
    /// The records' labels, for the constraints that have one (the layout
    /// front ends name constraints through their own tables, not here).
    var labels: [Int: String] = [:]
    /// Definitions of constraints made (``makeConstraint(_:)``) or removed
    /// and not in the solver now: what adding one again by its handle needs.
    /// Why not every constraint's: the solver's own are in `records`, and a
    /// second copy per constraint was 5% of a large layout's memory. Why a
    /// dictionary: the few it holds have ids anywhere, and a table by id
    /// grew to every id on the first removal.
    var made: [Int: ConstraintDefinition] = [:]
    var edits: [Int: EditRecord] = [:]
    var nextConstraintID = 0
    var nextSequence = 0
    /// Cells of the rows the subject search scanned, summed over every
    /// step of every insert (a machine-independent measure of the search's
    /// work, for tests: linear in the constraints when no row has to gather
    /// the whole layout).
    var subjectSearchCells = 0
    /// How many times a removal rebuilt the tableau (for benchmarks and tests).
    public private(set) var rebuildCount = 0
    /// See ``degeneratePivotsBeforeBland``; tests set 0 (Bland's rule always)
    /// to check that both entering rules reach the same optimum.
    var degeneratePivotsBeforeBland = CassowarySolver.degeneratePivotsBeforeBland
    #if LAYOUT_BENCH_INVARIANTS
    /// Mutations since the last invariant check (``checkInvariants()``).
    var mutationsSinceCheck = 0
    /// Tableaux of up to this many symbols are checked after every mutation.
    static let invariantCheckSpan = 256
    #endif

    public init() {}

    // MARK: Variables

    /// Makes a new variable (initial value 0).
    /// - Complexity: amortised O(1).
    public mutating func makeVariable(_ name: String = "") -> CassowaryVariable {
        let symbol = tableau.makeSymbol(.external)
        variableSymbols.append(symbol)
        if !name.isEmpty { variableNames[variableSymbols.count - 1] = name }
        values.append(0)
        return CassowaryVariable(id: variableSymbols.count - 1)
    }

    /// Makes `count` new variables (initial value 0), the same as `count`
    /// calls of ``makeVariable(_:)``; the first `names.count` of them named
    /// by `names` ("" for none).
    /// - Complexity: O(count).
    public mutating func makeVariables(_ count: Int, names: [String] = []) -> [CassowaryVariable] {
        let first = variableSymbols.count
        let symbols = tableau.makeSymbols(.external, count: max(0, count))
        variableSymbols.append(contentsOf: symbols)
        values.append(contentsOf: repeatElement(0, count: symbols.count))
        for (k, name) in names.prefix(symbols.count).enumerated() where !name.isEmpty { variableNames[first + k] = name }
        return (first..<first + symbols.count).map { CassowaryVariable(id: $0) }
    }

    /// The name a variable was made with ("" if none).
    func name(of variable: CassowaryVariable) -> String { variableNames[variable.id] ?? "" }

    /// The value of a variable as of the last ``updateVariables()``.
    public func value(of variable: CassowaryVariable) -> Double {
        values.indices.contains(variable.id) ? values[variable.id] : 0
    }

    /// The values of `variables` as of the last ``updateVariables()``, in
    /// their order. Why beside ``value(of:)``: a caller holding the solver
    /// in a class property that calls ``value(of:)`` per variable copied the
    /// whole solver struct (and retained its arrays) for each call.
    /// - Complexity: O(variables).
    public func values(of variables: [CassowaryVariable]) -> [Double] {
        variables.map { values.indices.contains($0.id) ? values[$0.id] : 0 }
    }

    /// Every variable's value as of the last ``updateVariables()``, by the
    /// variable's id (the order they were made in). Why beside
    /// ``values(of:)``: a caller that made every variable in one call reads
    /// them all, and the copy that `values(of:)` makes (a double read and
    /// written per variable, a new array) was a tenth of the cache misses of
    /// a resize of 10^4 random views (docs/measurements.md).
    /// - Complexity: O(1) (the array is shared until the next update).
    public var allValues: [Double] { values }

    /// Copies the solution out of the tableau: a parametric variable is 0, a
    /// basic one its row evaluated (``Tableau/values(of:)``).
    /// - Complexity: O(size of the external rows).
    public mutating func updateVariables() {
        tableau.values(of: variableSymbols, into: &values, scratch: &evaluation)
    }

    // MARK: Constraints

    /// Whether the constraint is in the solver.
    public func hasConstraint(_ constraint: CassowaryConstraint) -> Bool { records[constraint.id] != nil }

    /// The number of constraints in the solver (edits included).
    public var constraintCount: Int { records.count }

    /// Room for `count` more constraints without growing the solver's
    /// constraint table, for a caller that knows how many it will add.
    /// - Complexity: O(constraints after the call).
    public mutating func reserveCapacity(constraints count: Int) {
        records.reserveCapacity(nextConstraintID + max(0, count))
    }

    /// Room for `variables` more variables and `constraints` more
    /// constraints: the constraint table, the variables' arrays and the
    /// tableau's per-symbol arrays (a symbol a variable, and at most two a
    /// constraint: a slack or an error and a second error).
    /// - Complexity: O(symbols and constraints after the call).
    public mutating func reserveCapacity(variables: Int, constraints: Int) {
        let variables = max(0, variables), constraints = max(0, constraints)
        reserveCapacity(constraints: constraints)
        variableSymbols.reserveCapacity(variableSymbols.count + variables)
        values.reserveCapacity(values.count + variables)
        tableau.reserveSymbols(tableau.symbolCapacity + variables + 2 * constraints)
    }

    /// Makes a constraint without adding it (kiwi's `Constraint` value): it
    /// can then be added, removed and added again.
    /// - Throws: ``CassowaryError/invalidConstraint(label:reason:)``, ``CassowaryError/unknownVariable(_:)``.
    public mutating func makeConstraint(_ definition: ConstraintDefinition) throws(CassowaryError) -> CassowaryConstraint {
        try validate(definition)
        let handle = CassowaryConstraint(id: nextConstraintID)
        nextConstraintID += 1
        made[handle.id] = definition
        return handle
    }

    /// Adds a constraint made with ``makeConstraint(_:)``.
    /// - Throws: ``CassowaryError/duplicateConstraint(_:)`` if it is in the solver,
    ///   ``CassowaryError/unknownConstraint(_:)`` if it was never made, or what
    ///   ``addConstraint(_:)-(ConstraintDefinition)`` throws.
    public mutating func addConstraint(_ constraint: CassowaryConstraint) throws(CassowaryError) {
        guard records[constraint.id] == nil else { throw .duplicateConstraint(constraint) }
        guard let definition = made[constraint.id] else { throw .unknownConstraint(constraint) }
        try insert(definition, as: constraint, edit: nil, explain: true)
        made[constraint.id] = nil
    }

    /// Adds a constraint and re-optimises.
    ///
    /// - Throws: ``CassowaryError/unsatisfiable(label:conflict:)`` with a minimal
    ///   explanation if a required constraint cannot hold with the required
    ///   constraints already added; ``CassowaryError/invalidConstraint(label:reason:)``;
    ///   ``CassowaryError/unknownVariable(_:)``. The solver is unchanged after a throw.
    /// - Complexity: O(length of the substituted row × rows containing its
    ///   subject) plus the simplex pivots it causes; on chain-like layouts,
    ///   O(1) amortised.
    @discardableResult
    public mutating func addConstraint(_ definition: ConstraintDefinition) throws(CassowaryError) -> CassowaryConstraint {
        try validate(definition)
        let handle = CassowaryConstraint(id: nextConstraintID)
        try insert(definition, as: handle, edit: nil, explain: true)
        nextConstraintID += 1
        return handle
    }

    /// Removes a constraint and re-optimises.
    ///
    /// - Throws: ``CassowaryError/unknownConstraint(_:)``.
    /// - Complexity: incremental for inequalities and soft constraints (a pivot);
    ///   a required equality is removed by rebuilding, O(size of the system).
    public mutating func removeConstraint(_ constraint: CassowaryConstraint) throws(CassowaryError) {
        guard let record = records[constraint.id] else { throw .unknownConstraint(constraint) }
        if let edit = record.edit, edits[edit.id]?.constraint == constraint {
            throw .unknownConstraint(constraint)  // edits are removed with removeEditVariable
        }
        try erase(constraint)
    }

    mutating func erase(_ constraint: CassowaryConstraint) throws(CassowaryError) {
        guard let record = records[constraint.id] else { throw .unknownConstraint(constraint) }
        // A removed constraint can be added again by its handle (an edit's cannot).
        if record.edit == nil { made[constraint.id] = definition(of: record, id: constraint.id) }
        if record.redundant {
            forget(constraint.id)
            return
        }
        guard let marker = record.marker else {
            forget(constraint.id)
            // A required equality has no marker in the rows. If it was solved for
            // a fresh symbol whose row was never copied into another row, that row
            // is the only one that depends on it: drop it, and the symbol is free
            // again. Otherwise rebuild without it.
            if let subject = record.freshSubject, tableau.isBasic(subject), !tableau.absorbed[Int(subject.id)],
               tableau.owner[Int(subject.id)] == constraint.id {
                _ = tableau.removeRow(subject)
                try optimize()
                checkInvariants()
            } else {
                try rebuild()
            }
            return
        }
        forget(constraint.id)
        var infeasible = Set<Int32>()
        // Remove the error effects from the objective *before* pivoting: the
        // pivots substitute into the objective, and an error that is still
        // counted there would pull the answer toward the removed constraint.
        if case .soft(let strength) = record.strength, let level = tableau.existingLevel(for: strength) {
            for symbol in [record.marker, record.other].compactMap({ $0 }) where symbol.kind == .error {
                if tableau.isBasic(symbol) {
                    tableau.addToLevel(level, tableau.row(symbol), -1)
                } else {
                    tableau.addToLevel(level, symbol, -1)
                }
            }
        }
        if tableau.isBasic(marker) {
            _ = tableau.removeRow(marker)
        } else if let leaving = markerLeavingRow(marker) {
            tableau.pivot(leaving: leaving, entering: marker, infeasible: &infeasible, keepingEntering: false)
        }
        // The other error symbol now occurs in no row (it only ever appeared
        // together with the marker); clear rounding residue, then free both.
        for symbol in [record.marker, record.other].compactMap({ $0 }) {
            tableau.scrub(symbol)
            tableau.release(symbol)
        }
        if case .soft(let strength) = record.strength, let level = tableau.existingLevel(for: strength) {
            tableau.removeLevelUser(level)
        }
        try optimize()
        checkInvariants()
    }

    /// The row to pivot a nonbasic marker into the basis through: the
    /// restricted row that hits zero first as the marker grows (negative
    /// coefficient), else the one that hits zero first as it shrinks, else
    /// the unrestricted row of lowest rank; ties by lowest basic id. Why the
    /// lowest rank: the marker's new row then names only basic externals
    /// ranked below every other row that contains the marker, so
    /// substituting it keeps the external rows acyclic.
    func markerLeavingRow(_ marker: Symbol) -> Symbol? {
        var first: (ratio: Double, id: Int32)?
        var second: (ratio: Double, id: Int32)?
        var third: (rank: Int32, id: Int32)?
        for b in tableau.columns[Int(marker.id)] {
            let row = tableau.rows[Int(b)]
            let c = row.coefficient(of: marker)
            if tableau.kinds[Int(b)] == .external {
                let rank = tableau.rank[Int(b)]
                if third.map({ (rank, b) < ($0.rank, $0.id) }) ?? true { third = (rank, b) }
            } else if c < 0 {
                let r = -row.constant / c
                if first.map({ r < $0.ratio || (r == $0.ratio && b < $0.id) }) ?? true { first = (r, b) }
            } else {
                let r = row.constant / c
                if second.map({ r < $0.ratio || (r == $0.ratio && b < $0.id) }) ?? true { second = (r, b) }
            }
        }
        guard let id = first?.id ?? second?.id ?? third?.id else { return nil }
        return tableau.symbol(id: id)
    }

    // MARK: Edit variables

    /// Whether the variable has an edit.
    public func hasEditVariable(_ variable: CassowaryVariable) -> Bool { edits[variable.id] != nil }

    /// Makes a variable editable at a soft strength: `variable = value` holds
    /// at that strength, for the value last suggested (initially its current value).
    ///
    /// - Throws: ``CassowaryError/duplicateEditVariable(_:)``,
    ///   ``CassowaryError/requiredEditStrength(_:)``, ``CassowaryError/unknownVariable(_:)``.
    public mutating func addEditVariable(_ variable: CassowaryVariable, strength: Strength) throws(CassowaryError) {
        guard variableSymbols.indices.contains(variable.id) else { throw .unknownVariable(variable) }
        guard edits[variable.id] == nil else { throw .duplicateEditVariable(variable) }
        guard case .soft(let s) = strength else { throw .requiredEditStrength(variable) }
        guard s.isFinite, s > 0 else { throw .invalidConstraint(label: "edit", reason: "strength must be finite and > 0") }
        let value = values[variable.id]
        let definition = ConstraintDefinition(terms: [(variable, 1)], constant: -value, relation: .equal,
                                              strength: strength, label: "edit \(name(of: variable))")
        let handle = CassowaryConstraint(id: nextConstraintID)
        try insert(definition, as: handle, edit: variable, explain: false)
        nextConstraintID += 1
        edits[variable.id] = EditRecord(constraint: handle, strength: strength, value: value)
    }

    /// Removes a variable's edit.
    /// - Throws: ``CassowaryError/unknownEditVariable(_:)``.
    public mutating func removeEditVariable(_ variable: CassowaryVariable) throws(CassowaryError) {
        guard let edit = edits[variable.id] else { throw .unknownEditVariable(variable) }
        edits[variable.id] = nil
        try erase(edit.constraint)
    }

    /// Suggests a value for an edit variable and re-optimises with the dual simplex.
    ///
    /// The edit `v - c = e⁺ - e⁻` with a new constant `c + δ` is the old one
    /// with `e⁺` replaced by `e⁺' + δ`, so only constants change: `e⁺`'s row if
    /// it is basic, else every row containing `e⁺` (found through the column
    /// index). Rows that turn negative are repaired by the dual simplex.
    ///
    /// - Throws: ``CassowaryError/unknownEditVariable(_:)``, or
    ///   ``CassowaryError/internalError(_:)`` on numerical breakdown.
    /// - Complexity: O(rows that depend on the variable) plus dual pivots.
    public mutating func suggestValue(_ variable: CassowaryVariable, _ value: Double) throws(CassowaryError) {
        guard var edit = edits[variable.id] else { throw .unknownEditVariable(variable) }
        guard value.isFinite else { throw .invalidConstraint(label: "suggestion", reason: "value must be finite") }
        guard let record = records[edit.constraint.id], let plus = record.marker else {
            throw .internalError("edit without error symbols")
        }
        let delta = value - edit.value
        edit.value = value
        edits[variable.id] = edit
        records[edit.constraint.id]?.constant = -value
        // The same value again (a resize that keeps the height) moves no
        // constant: nothing to shift, nothing to repair.
        guard delta != 0 else { return }
        var infeasible = Set<Int32>()
        tableau.shiftEdit(plus, by: delta, infeasible: &infeasible)
        try dualOptimize(&infeasible)
        checkInvariants()
    }

    // MARK: Reset and rebuild

    /// Removes every constraint and edit; variables stay (values 0).
    public mutating func reset() {
        let names = variableSymbols.indices.map { variableNames[$0] ?? "" }
        var keep = made
        for (id, record) in records.entries where record.edit == nil { keep[id] = definition(of: record, id: id) }
        let next = nextConstraintID
        self = CassowarySolver()
        for name in names { _ = makeVariable(name) }
        made = keep
        nextConstraintID = next
    }

    /// Rebuilds the tableau from the recorded constraints, in insertion order,
    /// edits with their current suggestions.
    mutating func rebuild() throws(CassowaryError) {
        let ordered = records.entries.sorted { $0.value.sequence < $1.value.sequence }
            .map { (id: $0.id, definition: definition(of: $0.value, id: $0.id), edit: $0.value.edit) }
        let keepEdits = edits
        let savedValues = values
        tableau = tableau.successor()
        for i in variableSymbols.indices {
            let symbol = tableau.makeSymbol(.external)
            variableSymbols[i] = symbol
        }
        records = DenseTable()
        terms = TermArena()
        labels = [:]
        for (id, definition, edit) in ordered {
            do {
                try insert(definition, as: CassowaryConstraint(id: id), edit: edit, explain: false)
            } catch {
                throw .internalError("rebuild failed to re-add \(definition.label): \(error)")
            }
        }
        edits = keepEdits
        values = savedValues
        rebuildCount += 1
    }
}
