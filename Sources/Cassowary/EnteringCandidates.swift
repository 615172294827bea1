/// The symbols that may enter the primal simplex, kept up to date as the
/// objectives change, instead of found by scanning them at every pivot.
///
/// A candidate is a restricted symbol whose reduced-cost vector (its
/// coefficient in each objective row, strongest first) is lexicographically
/// negative. Why incremental: the objective rows hold an error symbol of
/// every soft constraint, so a scan per pivot made a load of self-sizing
/// rows quadratic (evidence: docs/measurements.md#m-2026-11-23-entering). A pivot
/// changes the objectives only by adding the entering symbol's new row to
/// them, so only that row's symbols (and the entering one) can change
/// status; they are marked *dirty* where the objectives change (every change
/// goes through ``Tableau``'s level methods) and re-examined when the next
/// entering symbol is chosen.
struct EnteringCandidates {
    /// One symbol's state. Why one array of these rather than an array per
    /// field: a load grows it once per new symbol, and each array's growth is
    /// an allocation the allocation gate counts.
    ///
    /// Why 4 bytes (the position in 30 bits, the two flags in the top two):
    /// there is a slot per symbol, a million on a grid at R = 10^5, and the
    /// table was 8 bytes a slot at the peak of its `solve`. A position is
    /// below the number of symbols, which could reach 2^30 only in a tableau
    /// of tens of gigabytes.
    struct Slot {
        private var bits: UInt32 = 0
        private static let dirtyBit: UInt32 = 1 << 30, weakBit: UInt32 = 1 << 31
        private static let positionMask: UInt32 = (1 << 30) - 1

        /// Its index in ``members``, or -1.
        var position: Int32 {
            get { Int32(bitPattern: bits & Self.positionMask) - 1 }
            set { bits = bits & ~Self.positionMask | UInt32(truncatingIfNeeded: newValue + 1) & Self.positionMask }
        }
        /// In ``dirty``.
        var isDirty: Bool {
            get { bits & Self.dirtyBit != 0 }
            set { bits = newValue ? bits | Self.dirtyBit : bits & ~Self.dirtyBit }
        }
        /// A candidate's improvement is weak (see
        /// ``CassowarySolver/improvementEpsilon``).
        var weak: Bool {
            get { bits & Self.weakBit != 0 }
            set { bits = newValue ? bits | Self.weakBit : bits & ~Self.weakBit }
        }
    }

    /// Everything must be re-examined (a level was added or dropped, or the
    /// tableau is new).
    var stale = true
    /// Symbols whose objective coefficients changed since the last refresh.
    private(set) var dirty: [Int32] = []
    /// The candidates, unordered.
    private(set) var members: [Int32] = []
    /// By symbol id, up to the highest id ever marked. Why not one per
    /// symbol made: the solves that explain a conflict make a solver per probe
    /// with no objective, and growing this for them was allocations for nothing.
    private(set) var slots: [Slot] = []

    func isWeak(_ id: Int32) -> Bool { slots[Int(id)].weak }

    /// Marks a symbol whose objective coefficients changed.
    mutating func mark(_ id: Int32) {
        let i = Int(id)
        if i >= slots.count { slots.append(contentsOf: repeatElement(Slot(), count: i + 1 - slots.count)) }
        guard !slots[i].isDirty else { return }
        slots[i].isDirty = true
        dirty.append(id)
    }

    /// Marks a symbol if it was ever marked (it may be a candidate): for a
    /// symbol id that is released or reused.
    mutating func markIfTracked(_ id: Int32) {
        if Int(id) < slots.count { mark(id) }
    }

    mutating func mark(_ row: Row) {
        for cell in row.cells { mark(cell.symbol.id) }
    }

    mutating func mark(_ objective: ObjectiveRow) {
        for symbol in objective.symbols { mark(symbol.id) }
    }

    /// Sets one symbol's status and clears its dirty flag.
    mutating func set(_ id: Int32, candidate: Bool, weak isWeak: Bool) {
        let i = Int(id)
        slots[i].isDirty = false
        if candidate {
            if slots[i].position < 0 {
                slots[i].position = Int32(members.count)
                members.append(id)
            }
            slots[i].weak = isWeak
        } else if slots[i].position >= 0 {
            let p = Int(slots[i].position)
            let last = members.removeLast()
            if p < members.count {
                members[p] = last
                slots[Int(last)].position = Int32(p)
            }
            slots[i].position = -1
        }
    }

    /// Empties the dirty list (its symbols are all re-examined).
    mutating func clearDirty() { dirty.removeAll(keepingCapacity: true) }

    /// Forgets symbol ids from `count` on (an undo took them back): they
    /// leave the candidates and the dirty list.
    /// - Complexity: O(candidates + dirty symbols).
    mutating func forgetIDs(from count: Int) {
        guard slots.count > count else { return }
        for id in members.filter({ Int($0) >= count }) { set(id, candidate: false, weak: false) }
        dirty.removeAll { Int($0) >= count }
        slots.removeLast(slots.count - count)
    }

    /// Forgets every candidate (before a full re-examination).
    mutating func clear() {
        for id in members { slots[Int(id)].position = -1 }
        members.removeAll(keepingCapacity: true)
        stale = false
    }
}

extension Tableau {
    /// The objective rows, strongest first: the artificial one while a row
    /// is added through an artificial variable, then one per level.
    var objectiveRows: [ObjectiveRow] {
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
        let artificialFloor = max(Row.nearZero, self.artificialFloor)
        func decide(_ coefficient: Double, isArtificial: Bool) -> (decided: Bool, candidate: Bool, weak: Bool) {
            let magnitude = abs(coefficient)
            let floor = isArtificial ? artificialFloor : Row.nearZero
            if magnitude > floor {
                let negative = coefficient < 0
                return (true, negative, !isArtificial && negative && magnitude <= CassowarySolver.improvementEpsilon)
            }
            // A symbol on the artificial row below its threshold (but not
            // zero) does not enter at all: letting a level decide would move
            // the artificial objective by rounding, back and forth.
            if isArtificial && magnitude > Row.nearZero { return (true, false, false) }
            return (false, false, false)
        }
        if let a = artificial {
            let d = decide(a.coefficient(of: symbol), isArtificial: true)
            if d.decided { return (d.candidate, d.weak) }
        }
        for level in levels {
            let d = decide(level.coefficient(of: symbol), isArtificial: false)
            if d.decided { return (d.candidate, d.weak) }
        }
        return (false, false)
    }

    /// Brings ``candidates`` up to date: re-examines the dirty symbols, or
    /// every symbol in an objective when stale.
    /// - Complexity: O(dirty symbols × objective rows × log(row length)).
    mutating func refreshCandidates() {
        if candidates.stale {
            candidates.clear()
            if let a = artificial { candidates.mark(a) }
            for row in levels { candidates.mark(row) }
        }
        // Why by index: iterating a copy of the list would allocate once per
        // pivot, and `set` does not add to it.
        var i = 0
        while i < candidates.dirty.count {
            let id = candidates.dirty[i]
            let status = enteringStatus(of: id)
            candidates.set(id, candidate: status.candidate, weak: status.weak)
            i += 1
        }
        candidates.clearDirty()
    }

    /// The candidates a full scan of the objectives finds (id → weak), for the
    /// invariant check.
    func candidatesByScan() -> [Int32: Bool] {
        var found: [Int32: Bool] = [:]
        for row in objectiveRows {
            for symbol in row.symbols {
                let status = enteringStatus(of: symbol.id)
                if status.candidate { found[symbol.id] = status.weak }
            }
        }
        return found
    }
}
