import LayoutModel

/// Sparse Gaussian elimination of the free frame columns through the active
/// required equality rows of a layout's LP: the structure behind the crash
/// basis of a large first solve (``LexicographicLP/makeCrashPlan(levels:)``).
///
/// Each pivot `(row p, column j)` solves row `p` for frame variable `j` and
/// substitutes it into every other active row (required or soft, equality or
/// inequality). What is left, the *reduced rows*, is the same LP in the
/// remaining frame variables: a point satisfies the pivot rows and the
/// original rows exactly when its remaining variables satisfy the reduced
/// rows, and each reduced row's value (with its constant) equals the original
/// row's there. Layouts are mostly chains of equalities (`a.left = b.right +
/// 8`, `w = h * 2`), so nearly every frame variable is eliminated and the
/// reduced LP holds the soft rows, the inequalities and the few degrees of
/// freedom they decide.
///
/// Why numerical rather than structural elimination: a structural matching
/// cannot see cancellations (`right.top = left.top` beside `right.bottom =
/// left.bottom` makes the two heights equal, and a Dulmage–Mendelsohn
/// decomposition left most variables of a decorated grid undecided; evidence:
/// docs/measurements.md#m-2026-11-23-glpk-crash-scale), while arithmetic does.
///
/// Nothing here decides an answer: the pivots only propose a basis, which
/// GLPK factorises and checks for primal and dual feasibility on the full
/// problem. A poor pivot costs simplex iterations, not correctness.
struct EqualityElimination {
    /// One active row that did not pivot, in terms of the remaining frame variables.
    struct ReducedRow {
        /// Index into the LP's rows.
        var lpRow: Int
        /// Frame variable indices (0-based, sorted, distinct) and their coefficients.
        var columns: [Int32]
        var values: [Double]
        /// The row's constant after substitution (`expression + constant ⋈ 0`).
        var constant: Double
    }

    /// The pivots in elimination order: LP row and the frame variable it solves for.
    private(set) var pivots: [(row: Int, column: Int)] = []
    /// Every active row that did not pivot, in LP row order.
    private(set) var reduced: [ReducedRow] = []

    /// Pivots are chosen among entries at least this fraction of their row's
    /// largest (threshold partial pivoting: bounds the growth of the
    /// multipliers, as in every sparse LU).
    static let pivotThreshold = 0.1
    /// A sum whose magnitude is this small relative to its operands is an
    /// exact cancellation (`h₁ - h₂` from two equal heights) and is dropped.
    static let cancellation = 1e-12
    /// A row whose entries are all this small relative to what was merged
    /// into it is redundant up to rounding: it does not pivot.
    static let negligible = 1e-9

    /// Eliminates; nil when the fill-in passes `fillLimit` entries (a dense
    /// coupling the crash basis would not pay for) or a value is not finite.
    ///
    /// - Parameters:
    ///   - rows: the LP's rows; only those with `active[r]` take part.
    ///   - variableCount: the number of frame variables.
    ///   - fillLimit: the most entries the working rows may hold at once.
    /// - Complexity: O(*nnz* log *r*) for chains of equalities (each pivot's
    ///   column meets a few rows); in general the cost of a sparse LU of the
    ///   equality rows, bounded by `fillLimit` per pivot.
    init?(rows: [LexicographicLP.RowInfo], active: [Bool], variableCount: Int, fillLimit: Int) {
        guard var work = WorkingRows(rows: rows, active: active, variableCount: variableCount) else { return nil }

        // Candidates by current length, shortest first: a min-heap of
        // (length << 32 | row), re-pushed on every change and checked for
        // staleness when popped. Why shortest rows first: a row of one entry
        // fixes its variable and a row of two renames one, neither creating
        // fill (Markowitz's cost (r-1)(c-1) is 0 for them).
        var heap = MinHeap()
        for a in work.isCandidate.indices where work.isCandidate[a] {
            heap.push(UInt64(work.columns[a].count) << 32 | UInt64(a))
        }
        var pivoted = [Bool](repeating: false, count: work.lpRowOf.count)
        var newColumns: [Int32] = [], newValues: [Double] = []
        while let top = heap.pop() {
            let p = Int(top & 0xFFFF_FFFF), length = Int(top >> 32)
            guard work.isCandidate[p], !pivoted[p], work.columns[p].count == length else { continue }
            let pc = work.columns[p], pv = work.values[p]
            // Empty or rounding only: redundant (or inconsistent, which the
            // reduced LP then says). It stays a reduced row.
            guard let best = work.pivotEntry(of: p) else { work.isCandidate[p] = false; continue }
            let j = pc[best], pivot = pv[best]
            pivoted[p] = true
            pivots.append((work.lpRowOf[p], Int(j)))
            for c in pc { work.count[Int(c)] -= 1 }
            work.entries -= pc.count
            for i32 in work.rowsOf[Int(j)] {
                let i = Int(i32)
                guard i != p, !pivoted[i] else { continue }
                guard let at = work.position(of: j, inRow: i) else { continue }
                guard work.eliminate(column: j, at: at, from: i32, pivotRow: p, pivotColumns: pc, pivotValues: pv, pivot: pivot,
                                     fillLimit: fillLimit, newColumns: &newColumns, newValues: &newValues)
                else { return nil }
                if work.isCandidate[i] { heap.push(UInt64(newColumns.count) << 32 | UInt64(i)) }
            }
            // The pivot row has left the matrix; its column is in no other row.
            work.columns[p] = []
            work.values[p] = []
        }
        for a in work.lpRowOf.indices where !pivoted[a] {
            guard work.values[a].allSatisfy(\.isFinite) else { return nil }
            reduced.append(ReducedRow(lpRow: work.lpRowOf[a], columns: work.columns[a], values: work.values[a],
                                      constant: work.constants[a]))
        }
    }

    /// The active rows while they are eliminated, numbered compactly in LP
    /// row order, with what the pivot choice reads: which rows hold each
    /// column and how many, and the entries in all.
    private struct WorkingRows {
        var lpRowOf: [Int] = []
        var columns: [[Int32]] = [], values: [[Double]] = [], constants: [Double] = []
        // What a row's entries are measured against (see `negligible`).
        var scale: [Double] = []
        var isCandidate: [Bool] = []
        // Rows holding each column (stale entries are checked on use) and
        // each column's live count, for the Markowitz-style choice.
        var rowsOf: [[Int32]]
        var count: [Int32]
        var entries = 0

        /// The active rows of `rows`, their zero coefficients dropped; the
        /// required equalities are the pivot candidates.
        /// - Returns: nil when a coefficient or constant is not finite or a
        ///   variable index is out of range.
        init?(rows: [LexicographicLP.RowInfo], active: [Bool], variableCount: Int) {
            rowsOf = [[Int32]](repeating: [], count: variableCount)
            count = [Int32](repeating: 0, count: variableCount)
            for (r, info) in rows.enumerated() where r < active.count && active[r] {
                let a = Int32(lpRowOf.count)
                lpRowOf.append(r)
                var c: [Int32] = [], v: [Double] = []
                c.reserveCapacity(info.row.expression.terms.count)
                v.reserveCapacity(info.row.expression.terms.count)
                var largest = 0.0
                for term in info.row.expression.terms where term.coefficient != 0 {
                    let j = term.variable.index
                    guard j >= 0, j < variableCount, term.coefficient.isFinite else { return nil }
                    c.append(Int32(j)); v.append(term.coefficient)
                    rowsOf[j].append(a)
                    count[j] += 1
                    largest = max(largest, abs(term.coefficient))
                }
                entries += c.count
                columns.append(c); values.append(v)
                constants.append(info.row.expression.constant)
                scale.append(largest)
                isCandidate.append(info.row.priority.isRequired && info.row.relation == .equal)
            }
            guard constants.allSatisfy(\.isFinite) else { return nil }
        }

        /// The entry of row `p` to pivot on: among the stable entries, the
        /// column in the fewest rows; nil when the row is empty or rounding only.
        func pivotEntry(of p: Int) -> Int? {
            let pc = columns[p], pv = values[p]
            var largest = 0.0
            for v in pv { largest = max(largest, abs(v)) }
            guard largest > EqualityElimination.negligible * scale[p] else { return nil }
            // Among the stable entries, the column in the fewest rows.
            var best = -1
            for t in pc.indices where abs(pv[t]) >= EqualityElimination.pivotThreshold * largest {
                if best < 0 || count[Int(pc[t])] < count[Int(pc[best])] { best = t }
            }
            return best
        }

        /// Where column `j` is in row `i` (still), by binary search.
        /// - Complexity: O(log *length*).
        func position(of j: Int32, inRow i: Int) -> Int? {
            let ic = columns[i]
            // Binary search: is column j (still) in row i?
            var lo = 0, hi = ic.count
            while lo < hi { let mid = (lo + hi) / 2; if ic[mid] < j { lo = mid + 1 } else { hi = mid } }
            guard lo < ic.count, ic[lo] == j else { return nil }
            return lo
        }

        /// Row `i` += factor · row `p`, column `j` (at `at` in row `i`)
        /// removed from both, with `factor` the multiple that cancels it;
        /// `newColumns` and `newValues` are scratch, left holding row `i`.
        /// - Returns: false when the entries pass `fillLimit` or a value is
        ///   not finite.
        mutating func eliminate(column j: Int32, at lo: Int, from i32: Int32, pivotRow p: Int, pivotColumns pc: [Int32],
                                pivotValues pv: [Double], pivot: Double, fillLimit: Int,
                                newColumns: inout [Int32], newValues: inout [Double]) -> Bool
        {
            let i = Int(i32)
            let ic = columns[i]
            let iv = values[i]
            let factor = -iv[lo] / pivot
            // row i += factor · row p, column j removed from both.
            newColumns.removeAll(keepingCapacity: true)
            newValues.removeAll(keepingCapacity: true)
            var x = 0, y = 0
            while x < ic.count || y < pc.count {
                let cx = x < ic.count ? ic[x] : Int32.max, cy = y < pc.count ? pc[y] : Int32.max
                if cx == j || cy == j {
                    if cx == j { x += 1; count[Int(j)] -= 1; entries -= 1 }
                    if cy == j { y += 1 }
                    continue
                }
                if cx < cy {
                    newColumns.append(cx); newValues.append(iv[x]); x += 1
                } else if cy < cx {
                    let add = factor * pv[y]
                    if add != 0 {
                        newColumns.append(cy); newValues.append(add)
                        rowsOf[Int(cy)].append(i32)
                        count[Int(cy)] += 1
                        entries += 1
                    }
                    y += 1
                } else {
                    let old = iv[x], add = factor * pv[y], sum = old + add
                    if abs(sum) <= EqualityElimination.cancellation * max(abs(old), abs(add)) {
                        count[Int(cx)] -= 1
                        entries -= 1
                    } else {
                        newColumns.append(cx); newValues.append(sum)
                    }
                    x += 1; y += 1
                }
            }
            guard entries <= fillLimit else { return false }
            columns[i] = newColumns
            values[i] = newValues
            constants[i] += factor * constants[p]
            scale[i] = max(scale[i], abs(factor) * scale[p])
            guard constants[i].isFinite, scale[i].isFinite else { return false }
            return true
        }
    }
}

/// A binary min-heap of `UInt64` keys (the elimination's candidate queue).
/// Why not a generic priority queue: this is the one use, and a concrete
/// element type keeps the hot loop free of generic dispatch.
struct MinHeap {
    private var keys: [UInt64] = []

    /// - Complexity: O(log *n*).
    mutating func push(_ key: UInt64) {
        keys.append(key)
        var child = keys.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard keys[child] < keys[parent] else { break }
            keys.swapAt(child, parent)
            child = parent
        }
    }

    /// The smallest key, removed; nil when empty.
    /// - Complexity: O(log *n*).
    mutating func pop() -> UInt64? {
        guard let first = keys.first else { return nil }
        let last = keys.removeLast()
        guard !keys.isEmpty else { return first }
        keys[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < keys.count && keys[left] < keys[smallest] { smallest = left }
            if right < keys.count && keys[right] < keys[smallest] { smallest = right }
            guard smallest != parent else { break }
            keys.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
