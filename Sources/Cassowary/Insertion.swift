// Inserting a constraint: its row, a subject for it (an external found by
// expanding as little as possible, else a restricted one, else an artificial
// variable), and the checks a new definition passes first.

extension CassowarySolver {
    // (`mutating` only so that its callers, which are, do not copy the
    // solver struct for the call: see ``Tableau/highestRankedBasicExternal(in:)``.)
    mutating func validate(_ definition: ConstraintDefinition) throws(CassowaryError) {
        for term in definition.terms where !variableSymbols.indices.contains(term.variable.id) {
            throw .unknownVariable(term.variable)
        }
        guard definition.terms.count <= ConstraintRecord.maximumTerms else {
            throw .invalidConstraint(label: definition.label, reason: "more than \(ConstraintRecord.maximumTerms) terms")
        }
        guard definition.constant.isFinite, definition.terms.allSatisfy({ $0.coefficient.isFinite }) else {
            throw .invalidConstraint(label: definition.label, reason: "coefficients and constant must be finite")
        }
        if case .soft(let s) = definition.strength, !(s.isFinite && s > 0) {
            throw .invalidConstraint(label: definition.label, reason: "soft strength must be finite and > 0")
        }
    }

    /// Inserts a validated definition under a given handle: its row with
    /// slack and error symbols (``makeRow(_:)``), then a subject: an external
    /// one found by expanding as little as possible (``findExternalSubject(in:owner:)``),
    /// else a restricted one or an artificial variable (``insertRestricted(_:_:marker:other:record:explain:)``).
    /// - Throws: ``CassowaryError/unsatisfiable(label:conflict:)`` when a required row conflicts (the tableau unchanged).
    /// - Complexity: the expansions the subject search needs (at most ``subjectSearchSteps`` one at a
    ///   time, then one flattening pass), then one simplex optimisation.
    mutating func insert(_ definition: ConstraintDefinition, as handle: CassowaryConstraint, edit: CassowaryVariable?,
                         explain: Bool) throws(CassowaryError) {
        var (row, marker, other) = makeRow(definition)
        var record = ConstraintRecord(definition, termStart: 0, sequence: nextSequenceNumber())
        record.marker = marker
        record.other = other
        record.edit = edit
        if let defined = findExternalSubject(in: &row, owner: marker == nil ? handle.id : nil) {
            // A required equality's subject row is the only one that depends
            // on it (rows that name the subject name it, they do not copy it),
            // until a later expansion copies it (``Tableau/absorbed``).
            if marker == nil { record.freshSubject = defined }
        } else {
            try insertRestricted(definition, &row, marker: marker, other: other, record: &record, explain: explain)
        }
        store(record, definition, as: handle.id)
        try optimize()
        checkInvariants()
    }

    /// The definition's row over the tableau's symbols, with its slack (an
    /// inequality) and error symbols (a soft constraint), the errors added to
    /// their strength's objective level.
    /// - Returns: the row, its marker (slack or first error) and the other error.
    // Why inlined (here and in the two steps below): one call per insert each,
    // on the hot path; as calls they cost 1-2% of a load (callgrind).
    @inline(__always) mutating func makeRow(_ definition: ConstraintDefinition) -> (row: Row, marker: Symbol?, other: Symbol?) {
        let markers: Int
        switch (definition.relation, definition.strength) {
        case (.equal, .required): markers = 0
        case (.equal, .soft), (_, .soft): markers = 2
        case (_, .required): markers = 1
        }
        var row = tableau.unexpanded(definition.terms, symbols: variableSymbols, constant: definition.constant,
                                     markers: markers)
        var marker: Symbol?
        var other: Symbol?
        var level: Int?
        switch (definition.relation, definition.strength) {
        case (.lessThanOrEqual, _), (.greaterThanOrEqual, _):
            // E <= 0 becomes E + s = 0; E >= 0 becomes E - s = 0 (s >= 0).
            let sign: Double = definition.relation == .lessThanOrEqual ? 1 : -1
            let slack = tableau.makeSymbol(.slack)
            row.add(slack, sign)
            marker = slack
            if case .soft(let strength) = definition.strength {
                // E <= e (soft): E + s - e = 0; e >= 0 is the violation.
                let error = tableau.makeSymbol(.error)
                row.add(error, -sign)
                other = error
                level = tableau.level(for: strength)
            }
        case (.equal, .soft(let strength)):
            // E = e⁺ - e⁻ with both >= 0: minimising e⁺ + e⁻ minimises |E|.
            let plus = tableau.makeSymbol(.error), minus = tableau.makeSymbol(.error)
            row.add(plus, -1)
            row.add(minus, 1)
            marker = plus
            other = minus
            level = tableau.level(for: strength)
        case (.equal, .required):
            break
        }
        if let level {
            tableau.addLevelUser(level)
            // Why not a loop over `[marker, other]`: that was an array per constraint.
            if let marker, marker.kind == .error { tableau.addToLevel(level, marker, 1) }
            if let other, other.kind == .error { tableau.addToLevel(level, other, 1) }
        }
        return (row, marker, other)
    }

    /// An external subject for `row`, expanding the row's basic externals
    /// only as far as needed: highest rank first, one at a time, until a
    /// parametric external can be defined by the row without a cycle. Why not
    /// expand everything first (solved form): that is what filled a chain in.
    /// - Returns: the external now defined by `row` (its row is in the
    ///   tableau), or nil with `row` flat and restricted.
    @inline(__always) mutating func findExternalSubject(in row: inout Row, owner: Int?) -> Symbol? {
        var defined: Symbol?
        var steps = 0
        while true {
            subjectSearchCells += row.cells.count
            dropResidues(&row)
            defined = defineExternalSubject(&row, owner: owner)
            guard defined == nil else { break }
            // Past a few steps, the row flattened highest rank first in one
            // pass, and one last try: each row is then expanded at most once
            // (the search's order may expand one twice). Why not one
            // expansion and one try at a time as in the search: each try
            // scans the row and may search the ranks (a failed cycle check),
            // and a row that needs many expansions made that quadratic (O(N²)
            // for a row of N equal widths closed at its far end).
            guard steps < Self.subjectSearchSteps else {
                if tableau.highestRankedBasicExternal(in: row) != nil {
                    row = tableau.flattened(row)
                    subjectSearchCells += row.cells.count
                    dropResidues(&row)
                    defined = defineExternalSubject(&row, owner: owner)
                }
                break
            }
            guard let b = tableau.nextExpansion(in: row) else { break }
            steps += 1
            // Re-orient `b`'s row when it offers a parametric external, so
            // that `b` itself can be the subject; else copy its row in.
            if tableau.reorient(b, awayFrom: row) { continue }
            tableau.expand(b, in: &row)
        }
        return defined
    }

    /// A flat, restricted row into the tableau: solved for a subject the
    /// row offers, recorded as redundant when it reduced to 0 = 0, else added
    /// through an artificial variable with every change journaled and undone
    /// on failure.
    /// - Throws: ``CassowaryError/unsatisfiable(label:conflict:)`` (0 = c with c ≠ 0, or
    ///   an artificial variable that cannot reach zero); the new symbols are released.
    /// (`row` is inout so that no copy of it is made: the caller is done with it.)
    @inline(__always) mutating func insertRestricted(_ definition: ConstraintDefinition, _ row: inout Row, marker: Symbol?, other: Symbol?,
                                   record: inout ConstraintRecord, explain: Bool) throws(CassowaryError) {
        // Why a non-negative constant: a restricted subject then starts feasible.
        if row.constant < 0 { row.negate() }
        if let subject = chooseSubject(row, marker: marker, other: other) {
            // Stored at its length, out of the buffer it was built in.
            tableau.solveExactly(&row, for: subject)
            var infeasible = Set<Int32>()
            tableau.substitute(subject, row, infeasible: &infeasible)
            tableau.setRow(subject, row)
        } else if row.cells.isEmpty {
            // Every variable was eliminated: 0 = constant.
            guard abs(row.constant) <= Row.feasibilityTolerance(magnitude: definition.constant) else {
                releaseNew([marker, other])
                throw unsatisfiable(definition, explain: explain)
            }
            record.redundant = true  // implied by the others (only a required equality gets here)
        } else {
            // No subject: add through an artificial variable; undo everything on failure.
            // Why a journal, not a copy of the tableau: see ``TableauJournal``.
            tableau.storeExactly(&row)
            tableau.beginJournal()
            let feasible: Bool
            do {
                feasible = try addWithArtificialVariable(row, tolerance: Row.feasibilityTolerance(magnitude: definition.constant))
            } catch {
                tableau.rollBack()
                releaseNew([marker, other])
                throw error
            }
            guard feasible else {
                tableau.rollBack()
                releaseNew([marker, other])
                throw unsatisfiable(definition, explain: explain)
            }
            tableau.endJournal()
        }
    }

    /// Releases the symbols made for a required constraint that could not be
    /// added (only required constraints fail, so no level was touched).
    mutating func releaseNew(_ symbols: [Symbol?]) {
        for symbol in symbols.compactMap({ $0 }) {
            tableau.scrub(symbol)
            tableau.release(symbol)
        }
    }

    /// An external's coefficient in a new row, after the basic symbols are
    /// substituted, below this fraction of the row's largest is the residue
    /// of near-parallel rows and is dropped before the row is added: the rows
    /// are parallel to this solver. Why: `v4.width = v1.width·1.000000001 +
    /// 1000` after `v4.width = v1.width + 3` leaves `-1e-9·v1.width - 997 =
    /// e`; solving that for `v1.width` wrote it as 1e9·e + ..., after which a
    /// later required `v4.width = 1` no longer fitted the doubles and was
    /// called a conflict on its own (hostile seed 11042), and keeping the
    /// term with another subject leaves a parameter in the objective, which
    /// the simplex never moves. A 1e-9 residue only pays off beyond the
    /// accepted range (1e12 and more). Why no higher: what 1.0000001 leaves
    /// (1e-7) still moves a view within range (seed 11602: an error of 1
    /// over 10 units).
    static let subjectThreshold = 1e-8

    /// Defines a parametric external of `row` by it, if one can be: the one
    /// that occurs in the fewest rows, ties by id, whose definition keeps the
    /// external rows acyclic (``Tableau/rankForDefinition(_:by:budget:)``); on
    /// success `row` is solved for it and becomes its row. `owner`:
    /// the constraint id when the row is a required equality's own.
    /// Why fewest rows: a variable that appears nowhere else (the new view of
    /// a chain) can never close a cycle and needs no rank raised.
    /// - Returns: the subject, now basic; nil if no parametric external fits.
    mutating func defineExternalSubject(_ row: inout Row, owner: Int?) -> Symbol? {
        func isCandidate(_ s: Symbol) -> Bool { s.kind == .external && !tableau.isBasic[Int(s.id)] }
        // Why the best first, without sorting: one try usually succeeds, and
        // a list per constraint was an allocation on the hot path.
        var best: (count: Int, symbol: Symbol)?
        for cell in row.cells where isCandidate(cell.symbol) {
            let count = tableau.columns[Int(cell.symbol.id)].count
            if best.map({ (count, cell.symbol.id) < ($0.count, $0.symbol.id) }) ?? true { best = (count, cell.symbol) }
        }
        guard let first = best?.symbol else { return nil }
        var chosen: Symbol?
        if tableau.rankForDefinition(first, by: row) {
            chosen = first
        } else {
            var others: [(count: Int, symbol: Symbol)] = []
            for cell in row.cells where isCandidate(cell.symbol) && cell.symbol != first {
                others.append((tableau.columns[Int(cell.symbol.id)].count, cell.symbol))
            }
            others.sort { ($0.count, $0.symbol.id) < ($1.count, $1.symbol.id) }
            chosen = others.first { tableau.rankForDefinition($0.symbol, by: row) }?.symbol
        }
        guard let subject = chosen else { return nil }
        // The row is the new definition, stored at its length.
        tableau.solveExactly(&row, for: subject)
        tableau.setRow(subject, row, owner: owner)
        return subject
    }

    /// How many expansions the search for a subject may take in its own
    /// order (``Tableau/nextExpansion(in:)``) before it flattens the row
    /// highest rank first. A chain needs one or two.
    static let subjectSearchSteps = 16

    /// Drops near-parallel residues from a new row (see ``subjectThreshold``):
    /// parametric externals whose coefficient is below the threshold
    /// relative to the row's largest. Basic externals are not judged here:
    /// their contribution is known only once expanded.
    // (`mutating` only so that the caller does not copy the solver struct
    // for the call: see ``Tableau/highestRankedBasicExternal(in:)``.)
    mutating func dropResidues(_ row: inout Row) {
        // Why one pass for the largest coefficient and the smallest
        // parametric one, then the filter only when a residue is there:
        // residues are rare, this runs before every try of every subject
        // search, and two passes with a closure each were 2-3% of a load of
        // the self-sizing rows (collecting them first allocated per constraint).
        var largest = 0.0, smallestParametric = Double.infinity
        for cell in row.cells {
            let magnitude = abs(cell.coefficient)
            largest = max(largest, magnitude)
            if cell.symbol.kind == .external && !tableau.isBasic[Int(cell.symbol.id)] {
                smallestParametric = min(smallestParametric, magnitude)
            }
        }
        let residue = Self.subjectThreshold * largest
        guard smallestParametric < residue else { return }
        func isResidue(_ cell: Row.Cell) -> Bool {
            cell.symbol.kind == .external && !tableau.isBasic[Int(cell.symbol.id)] && abs(cell.coefficient) < residue
        }
        for symbol in row.cells.filter(isResidue).map(\.symbol) { row.remove(symbol) }
    }

    /// The restricted symbol to solve a flat row without externals for: the
    /// marker or the other error symbol if its coefficient is negative (so
    /// that, with a non-negative constant, it starts feasible).
    func chooseSubject(_ row: Row, marker: Symbol?, other: Symbol?) -> Symbol? {
        if let marker, row.coefficient(of: marker) < 0 { return marker }
        if let other, row.coefficient(of: other) < 0 { return other }
        return nil
    }

    /// The unsatisfiable error for a definition, with a minimal explanation
    /// among the required constraints already added.
    func unsatisfiable(_ definition: ConstraintDefinition, explain: Bool) -> CassowaryError {
        guard explain else { return .unsatisfiable(label: definition.label, conflict: []) }
        let required = records.entries.filter { $0.value.strength == .required }
            .sorted { $0.value.sequence < $1.value.sequence }
        let candidates = required.map { self.definition(of: $0.value, id: $0.id) } + [definition]
        let conflict = Self.minimalConflict(candidates, variableCount: variableSymbols.count, mustInclude: candidates.count - 1)
        let handles = conflict.filter { $0 < required.count }.map { CassowaryConstraint(id: required[$0].id) }
        return .unsatisfiable(label: definition.label, conflict: handles)
    }
}
