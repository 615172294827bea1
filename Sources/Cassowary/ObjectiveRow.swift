/// An objective row: `constant + Σ coefficient × symbol` over nonbasic
/// restricted symbols, stored densely by symbol id once it holds more than a few.
///
/// Why not a ``Row``: a level holds an error symbol of every soft constraint
/// of its strength, thousands of cells, and a sorted array pays a merge of
/// the whole level for every substitution into it, which made a load of
/// R content-sized rows quadratic (evidence: docs/design/cassowary-dag.md,
/// "The problem: fill-in on content-sized rows").
/// Dense by id, a substitution costs the length of the substituted row and
/// a lookup is an index. The zero rule is ``Row``'s: a sum at most
/// ``Row/nearZero`` in magnitude is dropped, so both give the same cells.
///
/// Why a small mode: most levels hold a handful of errors (the grid's one
/// soft height, the container's edits), and dense arrays as long as the
/// largest symbol id seen cost 12 bytes a symbol of the whole tableau each:
/// 6 MB of a grid load at R = 10^4, 60 MB at 10^5
/// (docs/measurements.md#m-2026-11-27-objective-rows). Up to ``smallLimit``
/// cells live in two short arrays, searched linearly; the row turns dense for
/// good when it outgrows them. Both modes drop a cell the same way (the last
/// symbol takes its place), so ``symbols`` has the same order either way.
struct ObjectiveRow {
    var constant: Double
    /// Dense mode: coefficients by symbol id (0 where absent), as far as the largest id seen.
    private var dense: [Double] = []
    /// Dense mode: index in ``symbols`` by symbol id, or -1.
    private var position: [Int32] = []
    /// The symbols with a cell, unordered.
    private(set) var symbols: [Symbol] = []
    /// Small mode: the coefficient of each of ``symbols``.
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
        if isDense {
            let i = Int(symbol.id)
            return i < dense.count ? dense[i] : 0
        }
        return slot(of: symbol).map { values[$0] } ?? 0
    }

    private mutating func reach(_ id: Int32) {
        let i = Int(id)
        guard i >= dense.count else { return }
        // Why a quarter more rather than double: the arrays are filled (a
        // zero or -1 for every id), so all of their length is resident, and
        // ids grow one at a time during a load: doubling left up to half of
        // each dense level as a tail of ids not yet made (at 10^5
        // self-sizing rows, two levels of 4.2 million ids for 2.4 million
        // symbols). Growth is still geometric (amortised O(1)), at about
        // four copies of the final length in all instead of one.
        let grown = max(i + 1, dense.count + dense.count / 4 + 16)
        dense.append(contentsOf: repeatElement(0, count: grown - dense.count))
        position.append(contentsOf: repeatElement(-1, count: grown - position.count))
    }

    /// Moves the small mode's cells into dense arrays, for good.
    private mutating func becomeDense() {
        isDense = true
        for (k, symbol) in symbols.enumerated() {
            reach(symbol.id)
            dense[Int(symbol.id)] = values[k]
            position[Int(symbol.id)] = Int32(k)
        }
        values = []
    }

    /// Small mode: drops cell `k`, the last symbol taking its place (as ``drop(_:)``).
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
        if isDense, let i = denseIndex(of: symbol) {
            let sum = dense[i] + coefficient
            if Row.isZero(sum) {
                drop(i)
                return -1
            }
            dense[i] = sum
            return 0
        }
        guard !Row.isZero(coefficient) else { return 0 }
        appendNew(symbol, coefficient)
        return 1
    }

    /// Dense mode: the symbol's index in the dense arrays, if it has a cell.
    @inline(__always)
    private func denseIndex(of symbol: Symbol) -> Int? {
        let i = Int(symbol.id)
        return i < position.count && position[i] >= 0 ? i : nil
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
        dense[Int(symbol.id)] = value
        position[Int(symbol.id)] = Int32(symbols.count)
        symbols.append(symbol)
    }

    private mutating func drop(_ i: Int) {
        let p = Int(position[i])
        let last = symbols.removeLast()
        if p < symbols.count {
            symbols[p] = last
            position[Int(last.id)] = Int32(p)
        }
        position[i] = -1
        dense[i] = 0
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
        guard let i = denseIndex(of: symbol) else { return false }
        drop(i)
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
        } else if isDense, let i = denseIndex(of: symbol) {
            dense[i] = value
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

    /// Empties the row, keeping its buffers (the dense arrays stay zeroed).
    /// - Complexity: O(cells).
    mutating func removeAll() {
        if isDense {
            for symbol in symbols {
                dense[Int(symbol.id)] = 0
                position[Int(symbol.id)] = -1
            }
        } else {
            values.removeAll(keepingCapacity: true)
        }
        symbols.removeAll(keepingCapacity: true)
        constant = 0
    }

    /// Multiplies the row by -1.
    mutating func negate() {
        constant = -constant
        if isDense {
            for symbol in symbols { dense[Int(symbol.id)] = -dense[Int(symbol.id)] }
        } else {
            for k in values.indices { values[k] = -values[k] }
        }
    }
}
