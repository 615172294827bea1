/// One row of the tableau: `basic = constant + Σ coefficient × symbol`, or,
/// before it has a basic symbol, the relation `0 = constant + Σ ...`.
///
/// Cells are kept sorted by symbol id in a flat array: rows here are short
/// (a handful of cells on chain-like layouts), so a sorted vector beats a
/// hash map on both lookups and merges, and iteration order is deterministic.
struct Row: Equatable {
    struct Cell: Equatable {
        var symbol: Symbol
        var coefficient: Double
    }

    var constant: Double
    private(set) var cells: [Cell]

    /// The solver's one absolute zero: a coefficient whose magnitude is at
    /// most this is dropped from a row, does not decide a lexicographic sign
    /// of the objective, and a constant this little below zero is feasible
    /// (rounding). 1e-9: far below every tolerance a verdict uses (1e-7 and
    /// up) and far above what one pivot's rounding leaves at the magnitudes
    /// the format accepts. The other thresholds (``CassowarySolver``'s
    /// improvement, pivot and subject thresholds, ``requiredResidual(_:)``)
    /// are relative or decide something else, each documented where defined.
    static let nearZero = 1e-9

    /// Where the `cells` reference sits in a row, for the prefetch hints
    /// (``Tableau/prefetchCells(of:in:)``): after the constant. A literal,
    /// not `MemoryLayout.offset(of:)`: that is a global made at first use,
    /// and its check at every hint made the walk of small rows slower.
    /// `RowTests.firstCellAddress` fails if it is not where the cells are.
    static let cellsFieldOffset = 8

    /// The largest coefficient's magnitude (0 for a row without cells).
    /// - Complexity: O(cells).
    var largestCoefficient: Double { cells.reduce(0.0) { max($0, abs($1.coefficient)) } }

    init(constant: Double = 0, cells: [Cell] = []) {
        self.constant = constant
        self.cells = cells
    }

    static func isZero(_ value: Double) -> Bool { abs(value) <= nearZero }

    /// Room for `count` cells without reallocating.
    mutating func reserveCapacity(_ count: Int) { cells.reserveCapacity(count) }

    /// The residual under which a required row counts as satisfied: 1e-7
    /// absolute plus 1e-8 relative to the row's magnitude (its constant as
    /// given). Why relative: doubles carry about 16 digits, so rows of
    /// magnitude 1e7 that agree to 1e-14 relative (`a = 1e7` against
    /// `a = 10000000.0000001`) differ by 1e-7 after elimination, and an
    /// absolute test called them a conflict that the harness's tolerance
    /// (1e-5 + 1e-8 relative) and GLPK's (1e-7 relative) both accept.
    static func feasibilityTolerance(magnitude: Double) -> Double {
        1e-7 + 1e-8 * (magnitude.isFinite ? abs(magnitude) : 0)
    }

    /// Binary search for the symbol's position.
    /// - Complexity: O(log *n*).
    func index(of symbol: Symbol) -> (found: Bool, index: Int) {
        var lo = 0, hi = cells.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let id = cells[mid].symbol.id
            if id == symbol.id { return (true, mid) }
            if id < symbol.id { lo = mid + 1 } else { hi = mid }
        }
        return (false, lo)
    }

    /// The coefficient of a symbol (0 if absent).
    func coefficient(of symbol: Symbol) -> Double {
        let (found, i) = index(of: symbol)
        return found ? cells[i].coefficient : 0
    }

    /// Adds `coefficient × symbol`; returns +1 if the symbol was inserted,
    /// -1 if it cancelled out and was removed, 0 otherwise (for column upkeep).
    /// - Complexity: O(*n*) worst case (array insertion), O(log *n*) to update.
    @discardableResult
    mutating func add(_ symbol: Symbol, _ coefficient: Double) -> Int {
        // Why a test for the end first: a new row gets its slack and error
        // symbols last, and they are the newest, so the highest ids; the
        // general insert went through `replaceSubrange`, about 80
        // instructions where an append is a few (the same row either way).
        if cells.last.map({ $0.symbol.id < symbol.id }) ?? true {
            guard !Row.isZero(coefficient) else { return 0 }
            cells.append(Cell(symbol: symbol, coefficient: coefficient))
            return 1
        }
        let (found, i) = index(of: symbol)
        if found {
            let sum = cells[i].coefficient + coefficient
            if Row.isZero(sum) {
                cells.remove(at: i)
                return -1
            }
            cells[i].coefficient = sum
            return 0
        }
        guard !Row.isZero(coefficient) else { return 0 }
        cells.insert(Cell(symbol: symbol, coefficient: coefficient), at: i)
        return 1
    }

    /// Removes a symbol's cell; returns whether it was present.
    @discardableResult
    mutating func remove(_ symbol: Symbol) -> Bool {
        let (found, i) = index(of: symbol)
        if found { cells.remove(at: i) }
        return found
    }

    /// Multiplies the row by -1.
    mutating func negate() {
        constant = -constant
        for i in cells.indices { cells[i].coefficient = -cells[i].coefficient }
    }

    /// Rewrites the relation `0 = constant + Σ a_j x_j` as
    /// `subject = -(constant + Σ_{j≠subject} a_j x_j) / a_subject`.
    ///
    /// Precondition (checked by callers): the subject has a nonzero coefficient.
    mutating func solve(for subject: Symbol) {
        let (found, i) = index(of: subject)
        guard found else { return }
        let scale = -1 / cells[i].coefficient
        cells.remove(at: i)
        constant *= scale
        for j in cells.indices { cells[j].coefficient *= scale }
    }

    /// ``solve(for:)`` into a buffer of exactly the cells left. Why, for the
    /// row of a new constraint: it was built with room for every cell and
    /// then loses its subject's, so it kept a spare cell for good (16 bytes,
    /// and a larger allocation class: 12.8 MB on a grid at R = 10^5); the
    /// scaling pass writes the new buffer instead of the old one.
    /// The buffer the row had is handed back in `old` for the next row to
    /// be built in (``init(constant:reusing:)`` empties it).
    /// - Complexity: O(*n*).
    mutating func solveExactly(for subject: Symbol, handingBack old: inout [Cell]) {
        let (found, i) = index(of: subject)
        guard found else { return }
        let scale = -1 / cells[i].coefficient
        var exact: [Cell] = []
        exact.reserveCapacity(cells.count - 1)
        for j in cells.indices where j != i {
            exact.append(Cell(symbol: cells[j].symbol, coefficient: cells[j].coefficient * scale))
        }
        constant *= scale
        swap(&cells, &exact)
        // (Handed back with its cells: whoever builds in it empties it.)
        old = exact
    }

    /// Moves the cells into a buffer of exactly their number when the one
    /// they are in has room for more (a row built in a reused buffer, before
    /// it is stored); the buffer they were in is handed back in `old`.
    /// - Complexity: O(*n*).
    mutating func storeExactly(handingBack old: inout [Cell]) {
        guard cells.capacity > cells.count else { return }
        var exact: [Cell] = []
        exact.reserveCapacity(cells.count)
        exact.append(contentsOf: cells)
        swap(&cells, &exact)
        old = exact
    }

    /// A row to build in `buffer`'s storage (emptied, its capacity kept).
    init(constant: Double, reusing buffer: inout [Cell]) {
        self.constant = constant
        var cells: [Cell] = []
        swap(&cells, &buffer)
        cells.removeAll(keepingCapacity: true)
        self.cells = cells
    }

    /// Turns `basic = ...` into `entering = ...`: inserts `-1 × basic` to
    /// get the relation `0 = ... - basic`, then solves it for `entering`.
    ///
    /// Done in place when `entering` is in the row and `basic` is not (every
    /// pivot and re-orientation): `basic`'s cell takes `entering`'s place in
    /// the sorted order, the cells between move by one, and the count stays
    /// the same. Why: inserting first and removing after reallocated every
    /// row that was at its capacity (most are: rows are stored at their
    /// length) only to give the room back. The arithmetic is the two steps'
    /// own (the same scale, `basic`'s coefficient `-1 × scale`), so the row
    /// is the same.
    /// - Complexity: O(*n*).
    mutating func solve(for entering: Symbol, replacing basic: Symbol) {
        let (found, p) = index(of: entering)
        let (present, q) = index(of: basic)
        guard found, !present else {
            add(basic, -1)
            solve(for: entering)
            return
        }
        let scale = -1 / cells[p].coefficient
        constant *= scale
        // Where `basic` lands once `entering`'s cell is gone.
        let at = q > p ? q - 1 : q
        if q > p {
            for k in p..<at { cells[k] = cells[k + 1] }
        } else {
            var k = p
            while k > at {
                cells[k] = cells[k - 1]
                k -= 1
            }
        }
        cells[at] = Cell(symbol: basic, coefficient: -scale)
        for j in cells.indices where j != at { cells[j].coefficient *= scale }
    }

    /// The merge of `self` and `factor × other`, skipping `skip`, calling
    /// `onChange(symbol, +1|-1)` for each cell inserted or cancelled.
    ///
    /// Why one merge pass instead of repeated `add`: substitution is the hot
    /// loop; a linear merge of two sorted arrays avoids O(n) insertions.
    /// - Complexity: O(*n* + *m*).
    @inline(__always)
    mutating func addScaled(_ other: Row, _ factor: Double, skipping skip: Symbol? = nil,
                            onChange: (Symbol, Int) -> Void = { _, _ in }) {
        var merged: [Cell] = []
        // Why the skipped cell is not given room: the row keeps this
        // capacity for good, and a substitution always skips a cell of the
        // row it rewrites (one spare cell a rewritten row otherwise).
        let skipped = skip.map { index(of: $0).found } ?? false
        merged.reserveCapacity(cells.count + other.cells.count - (skipped ? 1 : 0))
        merge(other, factor, skipping: skip, into: &merged, onChange: onChange)
        cells = merged
    }

    /// ``addScaled(_:_:skipping:onChange:)`` merged through `scratch` (a kept
    /// buffer, emptied) and written back into the row's own buffer when it
    /// has room; otherwise into a new one with the room the merge could have
    /// needed, as that method gives.
    @inline(__always)
    mutating func addScaled(_ other: Row, _ factor: Double, skipping skip: Symbol, scratch: inout [Cell],
                            onChange: (Symbol, Int) -> Void) {
        scratch.removeAll(keepingCapacity: true)
        merge(other, factor, skipping: skip, into: &scratch, onChange: onChange)
        if cells.capacity >= scratch.count {
            cells.removeAll(keepingCapacity: true)
            cells.append(contentsOf: scratch)
        } else {
            var merged: [Cell] = []
            merged.reserveCapacity(cells.count + other.cells.count - 1)
            merged.append(contentsOf: scratch)
            cells = merged
        }
    }

    /// ``addScaled(_:_:skipping:onChange:)`` for a row being built: the
    /// merge is written into `spare` (emptied, grown only when too small),
    /// which then becomes the row's buffer, and the row's old buffer
    /// becomes `spare`. Why: a new constraint's row is expanded a time or
    /// two before it is stored, and a fresh buffer each time was an
    /// allocation and a free per expansion (the row is stored at its length
    /// afterwards: ``storeExactly(handingBack:)``).
    /// - Complexity: O(*n* + *m*).
    @inline(__always)
    mutating func addScaled(_ other: Row, _ factor: Double, skipping skip: Symbol, through spare: inout [Cell]) {
        spare.removeAll(keepingCapacity: true)
        spare.reserveCapacity(cells.count + other.cells.count)
        merge(other, factor, skipping: skip, into: &spare, onChange: { _, _ in })
        swap(&cells, &spare)
    }

    /// The merge of ``addScaled(_:_:skipping:onChange:)``, appended to `merged`.
    @inline(__always)
    private mutating func merge(_ other: Row, _ factor: Double, skipping skip: Symbol?, into merged: inout [Cell],
                                onChange: (Symbol, Int) -> Void) {
        constant += factor * other.constant
        var i = 0, j = 0
        let a = cells, b = other.cells
        let skipID = skip?.id ?? -1
        while i < a.count || j < b.count {
            if j >= b.count || (i < a.count && a[i].symbol.id < b[j].symbol.id) {
                if a[i].symbol.id == skipID {
                    onChange(a[i].symbol, -1)
                } else {
                    merged.append(a[i])
                }
                i += 1
            } else if i >= a.count || b[j].symbol.id < a[i].symbol.id {
                let c = factor * b[j].coefficient
                if !Row.isZero(c) {
                    merged.append(Cell(symbol: b[j].symbol, coefficient: c))
                    onChange(b[j].symbol, 1)
                }
                j += 1
            } else {
                if a[i].symbol.id == skipID {
                    onChange(a[i].symbol, -1)
                } else {
                    let c = a[i].coefficient + factor * b[j].coefficient
                    if Row.isZero(c) {
                        onChange(a[i].symbol, -1)
                    } else {
                        merged.append(Cell(symbol: a[i].symbol, coefficient: c))
                    }
                }
                i += 1
                j += 1
            }
        }
    }
}
