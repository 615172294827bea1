/// An objective row: `constant + Σ coefficient × symbol` over nonbasic
/// restricted symbols, stored densely by symbol id once it holds more than a few.
///
/// Why not a ``Row``: a level holds an error symbol of every soft constraint
/// of its strength, thousands of cells, and a sorted array pays a merge of
/// the whole level for every substitution into it, which made a load of
/// R content-sized rows quadratic (evidence: docs/design/cassowary-dag.md,
/// "The problem: fill-in on content-sized rows").
/// Dense by id, a substitution costs the length of the substituted row and
/// a lookup is two indexes (the cell's place, then its coefficient). The zero rule is ``Row``'s: a sum at most
/// ``Row/nearZero`` in magnitude is dropped, so both give the same cells.
///
/// Why a small mode: most levels hold a handful of errors (the grid's one
/// soft height, the container's edits), and dense arrays as long as the
/// largest symbol id seen cost 12 bytes a symbol of the whole tableau each
/// (4 since only positions are kept by id): 6 MB of a grid load at
/// R = 10^4, 60 MB at 10^5 (docs/measurements.md#m-2026-11-27-objective-rows).
/// Up to ``smallLimit`` cells live in two short arrays, searched linearly;
/// the row turns dense for good when it outgrows them, indexing the same
/// arrays by id. Both modes drop a cell the same way (the last symbol takes
/// its place), so ``symbols`` has the same order either way.
struct ObjectiveRow {
    var constant: Double
    /// Dense mode: index in ``symbols`` by symbol id, or -1, as far as the
    /// largest id seen.
    ///
    /// Why no coefficients by id: an array of them beside this one was 8 more
    /// bytes for every id of the tableau in every dense level, where a level
    /// holds a cell for a fraction of the ids (self-sizing rows at 10^5: two
    /// levels of 2.4 million ids each; docs/measurements.md#m-2026-11-27-objective-positions).
    private var position: [Int32] = []
    /// The symbols with a cell, unordered.
    private(set) var symbols: [Symbol] = []
    /// The coefficient of each of ``symbols``, in both modes.
    private var values: [Double] = []
    private var isDense = false

    /// The most cells a row holds before it turns dense.
    static let smallLimit = 16

    init(constant: Double = 0) { self.constant = constant }

    init(_ row: Row) {
        constant = row.constant
        for cell in row.cells { add(cell.symbol, cell.coefficient) }
    }

    var isEmpty: Bool { symbols.isEmpty }

    /// The cells sorted by symbol id (for dumps and checks).
    /// - Complexity: O(*n* log *n*).
    var cells: [Row.Cell] {
        symbols.sorted().map { Row.Cell(symbol: $0, coefficient: coefficient(of: $0)) }
    }

    /// Small mode: where `symbol` is in ``symbols``.
    @inline(__always)
    private func slot(of symbol: Symbol) -> Int? {
        for k in symbols.indices where symbols[k].id == symbol.id { return k }
        return nil
    }

    /// - Complexity: O(1) (at most ``smallLimit`` compares in small mode).
    func coefficient(of symbol: Symbol) -> Double {
        if isDense { return denseSlot(of: symbol).map { values[$0] } ?? 0 }
        return slot(of: symbol).map { values[$0] } ?? 0
    }

    private mutating func reach(_ id: Int32) {
        let i = Int(id)
        guard i >= position.count else { return }
        // Why a quarter more rather than double: the arrays are filled (a
        // zero or -1 for every id), so all of their length is resident, and
        // ids grow one at a time during a load: doubling left up to half of
        // each dense level as a tail of ids not yet made (at 10^5
        // self-sizing rows, two levels of 4.2 million ids for 2.4 million
        // symbols). Growth is still geometric (amortised O(1)), at about
        // four copies of the final length in all instead of one.
        let grown = max(i + 1, position.count + position.count / 4 + 16)
        position.append(contentsOf: repeatElement(-1, count: grown - position.count))
    }

    /// Indexes the small mode's cells by id, for good.
    private mutating func becomeDense() {
        isDense = true
        for (k, symbol) in symbols.enumerated() {
            reach(symbol.id)
            position[Int(symbol.id)] = Int32(k)
        }
    }

    /// Drops cell `k`, the last symbol taking its place (in dense mode its
    /// position is updated by ``drop(_:)``).
    private mutating func dropSmall(_ k: Int) {
        let last = symbols.removeLast(), lastValue = values.removeLast()
        if k < symbols.count {
            symbols[k] = last
            values[k] = lastValue
        }
    }

    /// Adds `coefficient × symbol`; returns +1 if a cell appeared, -1 if one
    /// cancelled out, 0 otherwise (``Row/add(_:_:)``'s contract).
    /// - Complexity: O(1) amortised.
    @discardableResult
    mutating func add(_ symbol: Symbol, _ coefficient: Double) -> Int {
        if !isDense, let k = slot(of: symbol) {
            let sum = values[k] + coefficient
            if Row.isZero(sum) {
                dropSmall(k)
                return -1
            }
            values[k] = sum
            return 0
        }
        if isDense, let k = denseSlot(of: symbol) {
            let sum = values[k] + coefficient
            if Row.isZero(sum) {
                drop(symbol)
                return -1
            }
            values[k] = sum
            return 0
        }
        guard !Row.isZero(coefficient) else { return 0 }
        appendNew(symbol, coefficient)
        return 1
    }

    /// Dense mode: where the symbol's cell is in ``symbols``, if it has one.
    @inline(__always)
    private func denseSlot(of symbol: Symbol) -> Int? {
        let i = Int(symbol.id)
        guard i < position.count else { return nil }
        let k = Int(position[i])
        return k >= 0 ? k : nil
    }

    /// A cell for a symbol the row does not hold (`value` nonzero), in
    /// either mode; the row turns dense when the small arrays are full.
    private mutating func appendNew(_ symbol: Symbol, _ value: Double) {
        if !isDense {
            if symbols.count < Self.smallLimit {
                symbols.append(symbol)
                values.append(value)
                return
            }
            becomeDense()
        }
        reach(symbol.id)
        position[Int(symbol.id)] = Int32(symbols.count)
        symbols.append(symbol)
        values.append(value)
    }

    /// Dense mode: drops the symbol's cell (it has one), the last symbol
    /// taking its place.
    private mutating func drop(_ symbol: Symbol) {
        let i = Int(symbol.id)
        let k = Int(position[i])
        dropSmall(k)
        if k < symbols.count { position[Int(symbols[k].id)] = Int32(k) }
        position[i] = -1
    }

    /// Removes a symbol's cell; returns whether it was present.
    /// - Complexity: O(1).
    @discardableResult
    mutating func remove(_ symbol: Symbol) -> Bool {
        guard isDense else {
            guard let k = slot(of: symbol) else { return false }
            dropSmall(k)
            return true
        }
        guard denseSlot(of: symbol) != nil else { return false }
        drop(symbol)
        return true
    }

    /// Sets a symbol's coefficient to exactly `value` (0 removes the cell):
    /// how an undo puts back what a change overwrote.
    /// - Complexity: O(1) amortised.
    mutating func setCoefficient(of symbol: Symbol, to value: Double) {
        if value == 0 {
            remove(symbol)
        } else if !isDense, let k = slot(of: symbol) {
            values[k] = value
        } else if isDense, let k = denseSlot(of: symbol) {
            values[k] = value
        } else {
            appendNew(symbol, value)
        }
    }

    /// Adds `factor × row`, dropping `skip`'s own cell first (the symbol being
    /// substituted; `row` is its definition and does not contain it).
    /// - Complexity: O(length of `row`).
    mutating func addScaled(_ row: Row, _ factor: Double, skipping skip: Symbol? = nil) {
        constant += factor * row.constant
        if let skip { remove(skip) }
        for cell in row.cells { add(cell.symbol, factor * cell.coefficient) }
    }

    /// Empties the row, keeping its buffers (the positions reset to -1).
    /// - Complexity: O(cells).
    mutating func removeAll() {
        if isDense {
            for symbol in symbols { position[Int(symbol.id)] = -1 }
        }
        values.removeAll(keepingCapacity: true)
        symbols.removeAll(keepingCapacity: true)
        constant = 0
    }

    /// Multiplies the row by -1.
    mutating func negate() {
        constant = -constant
        for k in values.indices { values[k] = -values[k] }
    }
}
