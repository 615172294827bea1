/// The symbols that may enter the primal simplex, kept up to date as the
/// objectives change, instead of found by scanning them at every pivot.
///
/// A candidate is a restricted symbol whose reduced-cost vector (its
/// coefficient in each objective row, strongest first) is lexicographically
/// negative. Why incremental: the objective rows hold an error symbol of
/// every soft constraint, so a scan per pivot made a load of self-sizing
/// rows quadratic (68% of its instructions at R = 500, 2.0 G). A pivot
/// changes the objectives only by adding the entering symbol's new row to
/// them, so only that row's symbols (and the entering one) can change
/// status; they are marked *dirty* where the objectives change (every change
/// goes through ``Tableau``'s level methods) and re-examined when the next
/// entering symbol is chosen.
struct EnteringCandidates {
    /// Everything must be re-examined (a level was added or dropped, or the
    /// tableau is new).
    var stale = true
    /// Symbols whose objective coefficients changed since the last refresh.
    private(set) var dirty: [Int32] = []
    private var isDirty: [Bool] = []
    /// The candidates, unordered; `position[id]` is the index of `id` in
    /// `members`, or -1.
    private(set) var members: [Int32] = []
    private var position: [Int32] = []
    /// Whether a candidate's improvement is weak (see
    /// ``CassowarySolver/improvementEpsilon``), by symbol id.
    private(set) var weak: [Bool] = []

    /// Room for symbol ids below `capacity`.
    mutating func grow(to capacity: Int) {
        while isDirty.count < capacity {
            isDirty.append(false)
            position.append(-1)
            weak.append(false)
        }
    }

    mutating func mark(_ id: Int32) {
        let i = Int(id)
        guard i < isDirty.count, !isDirty[i] else { return }
        isDirty[i] = true
        dirty.append(id)
    }

    mutating func mark(_ row: Row) {
        for cell in row.cells { mark(cell.symbol.id) }
    }

    /// Sets one symbol's status and clears its dirty flag.
    mutating func set(_ id: Int32, candidate: Bool, weak isWeak: Bool) {
        let i = Int(id)
        isDirty[i] = false
        if candidate {
            if position[i] < 0 {
                position[i] = Int32(members.count)
                members.append(id)
            }
            weak[i] = isWeak
        } else if position[i] >= 0 {
            let p = Int(position[i])
            let last = members.removeLast()
            if p < members.count {
                members[p] = last
                position[Int(last)] = Int32(p)
            }
            position[i] = -1
        }
    }

    mutating func takeDirty() -> [Int32] {
        defer { dirty.removeAll(keepingCapacity: true) }
        return dirty
    }

    /// Forgets every candidate (before a full re-examination).
    mutating func clear() {
        for id in members { position[Int(id)] = -1 }
        members.removeAll(keepingCapacity: true)
        stale = false
    }
}

extension Tableau {
    /// The objective rows, strongest first: the artificial one while a row
    /// is added through an artificial variable, then one per level.
    var objectiveRows: [Row] {
        if let a = artificial { return [a] + levels }
        return levels
    }

    /// Whether symbol `id` may enter, and whether its improvement is weak:
    /// the sign of its first coefficient that counts as non-zero, strongest
    /// objective first. The thresholds are ``CassowarySolver/enteringSymbol(excluding:bland:)``'s.
    /// - Complexity: O(objective rows × log(row length)).
    func enteringStatus(of id: Int32) -> (candidate: Bool, weak: Bool) {
        guard let kind = kinds[Int(id)], kind != .external, !isBasic[Int(id)] else { return (false, false) }
        let symbol = Symbol(id: id, kind: kind)
        let artificialFloor = max(CassowarySolver.objectiveEpsilon, self.artificialFloor)
        var k = 0
        func decide(_ coefficient: Double, isArtificial: Bool) -> (decided: Bool, candidate: Bool, weak: Bool) {
            let magnitude = abs(coefficient)
            let floor = isArtificial ? artificialFloor : CassowarySolver.objectiveEpsilon
            if magnitude > floor {
                let negative = coefficient < 0
                return (true, negative, !isArtificial && negative && magnitude <= CassowarySolver.improvementEpsilon)
            }
            // A symbol on the artificial row below its threshold (but not
            // zero) does not enter at all: letting a level decide would move
            // the artificial objective by rounding, back and forth.
            if isArtificial && magnitude > CassowarySolver.objectiveEpsilon { return (true, false, false) }
            return (false, false, false)
        }
        if let a = artificial {
            let d = decide(a.coefficient(of: symbol), isArtificial: true)
            if d.decided { return (d.candidate, d.weak) }
        }
        while k < levels.count {
            let d = decide(levels[k].coefficient(of: symbol), isArtificial: false)
            if d.decided { return (d.candidate, d.weak) }
            k += 1
        }
        return (false, false)
    }

    /// Brings ``candidates`` up to date: re-examines the dirty symbols, or
    /// every symbol in an objective when stale.
    /// - Complexity: O(dirty symbols × objective rows × log(row length)).
    mutating func refreshCandidates() {
        candidates.grow(to: kinds.count)
        if candidates.stale {
            candidates.clear()
            for row in objectiveRows { candidates.mark(row) }
        }
        for id in candidates.takeDirty() {
            let status = enteringStatus(of: id)
            candidates.set(id, candidate: status.candidate, weak: status.weak)
        }
    }

    /// The candidates a full scan of the objectives finds (id → weak), for the
    /// invariant check.
    func candidatesByScan() -> [Int32: Bool] {
        var found: [Int32: Bool] = [:]
        for row in objectiveRows {
            for cell in row.cells {
                let status = enteringStatus(of: cell.symbol.id)
                if status.candidate { found[cell.symbol.id] = status.weak }
            }
        }
        return found
    }
}
