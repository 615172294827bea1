// The soft rows of a lowered system in flat arrays, for a solver that keeps
// them only to measure an answer's errors per priority level (the native
// solver's adapter). What the sums are is ``LoweredSystem/levelErrors(_:)``'s
// definition; both add each level's errors in the rows' order (that one
// through ``LevelErrorSums``, this one into a level index a row), so they
// are the same numbers, bit for bit (SoftRowsTests).
//
// Why not an array of `LoweredConstraint`: each of those is a struct of 48
// bytes and an array of terms on the heap. A self-sizing table has four soft
// rows a view, one term each: at 10^5 rows, 800,000 rows kept for the
// solver's whole life. Kept here (a row 24 bytes, a term 16), the peak of
// that solve fell from 759 to 715 MB (docs/measurements.md#m-2026-11-27-soft-rows).

import LayoutModel

/// The soft (non-required) rows of a lowered system, in order, each with its
/// terms, constant, relation and priority.
public struct SoftRows: Sendable {
    private struct Row {
        var constant: Double
        /// Where the row's terms end in ``terms`` (they start where the
        /// previous row's end).
        var termEnd: Int32
        /// The row's priority, as an index into ``priorities``.
        var level: Int32
        var relation: Relation
    }

    private struct Term {
        var coefficient: Double
        var variable: Int32
    }

    // Why two arrays of structs, not an array a field: an append is a
    // uniqueness check and a capacity test each, and six of them a row cost
    // 260 instructions (callgrind, self-sizing rows).
    private var rows: [Row] = []
    private var terms: [Term] = []
    /// The distinct priorities of the rows, in the order first appended.
    ///
    /// Why a level a row, not its priority: an answer reads every soft row,
    /// and finding the row's level among the sums (and writing the sum back
    /// into an array of pairs) was half of `levelErrors`'s 52 instructions a
    /// row on self-sizing rows, whose priorities alternate row by row; a
    /// resize there spent more time in it than in evaluating the variables.
    private var priorities: [Double] = []
    /// The level of the last row appended, tried first by the next.
    private var lastLevel = -1

    public init() {}

    /// The soft rows of `rows`, in their order, in arrays of their exact size.
    ///
    /// Why counted first: an answer after a switch of variant rebuilds these
    /// arrays, and growing them by doubling (a generic sequence besides)
    /// doubled that switch's allocations on a 200-row screen.
    /// - Complexity: O(terms).
    public init(_ rows: [LoweredConstraint]) {
        var rowCount = 0, termCount = 0
        for row in rows where !row.priority.isRequired {
            rowCount += 1
            termCount += row.expression.terms.count
        }
        self.rows.reserveCapacity(rowCount)
        terms.reserveCapacity(termCount)
        priorities.reserveCapacity(Self.typicalLevels)
        for row in rows { append(row) }
    }

    public var count: Int { rows.count }

    /// Makes room for `rows` rows and `terms` terms in all.
    /// - Complexity: O(rows + terms) when the arrays grow.
    public mutating func reserveCapacity(rows: Int, terms: Int) {
        self.rows.reserveCapacity(rows)
        self.terms.reserveCapacity(terms)
        priorities.reserveCapacity(Self.typicalLevels)
    }

    /// Room for the priorities of most layouts at once (a handful of
    /// levels): grown by doubling from one, the list was three allocations
    /// a load.
    static let typicalLevels = 8

    /// Appends `row` if it is soft; a required row is not kept.
    ///
    /// - Complexity: O(terms of the row), amortised.
    public mutating func append(_ row: LoweredConstraint) {
        guard !row.priority.isRequired else { return }
        for term in row.expression.terms {
            terms.append(Term(coefficient: term.coefficient, variable: Int32(truncatingIfNeeded: term.variable.index)))
        }
        let p = row.priority.rawValue
        if lastLevel < 0 || priorities[lastLevel] != p {
            if let known = priorities.firstIndex(of: p) {
                lastLevel = known
            } else {
                priorities.append(p)
                lastLevel = priorities.count - 1
            }
        }
        rows.append(Row(constant: row.expression.constant, termEnd: Int32(truncatingIfNeeded: terms.count),
                        level: Int32(truncatingIfNeeded: lastLevel), relation: row.relation))
    }

    /// Each level's error under an assignment: the same numbers as
    /// ``LoweredSystem/levelErrors(_:)`` of the rows appended.
    ///
    /// - Parameter value: the value of each variable, by ``FrameVariable/index``.
    /// - Complexity: O(rows + terms).
    public func levelErrors(_ value: [Double]) -> [LevelError] {
        // Each level's errors are added in the rows' order, as
        // ``LevelErrorSums`` adds them: the same sums, bit for bit. Read
        // through buffers: `termEnd` never passes `terms.count` and `level`
        // never passes `priorities.count` (`append` writes them together).
        // Summed in the answer's own array, sorted in place at the end: one
        // allocation an answer (an answer is read after every resize).
        var levels = priorities.map { LevelError(priority: Priority($0), error: 0) }
        rows.withUnsafeBufferPointer { rows in
            terms.withUnsafeBufferPointer { terms in
                levels.withUnsafeMutableBufferPointer { levels in
                    var t = 0
                    for row in rows {
                        var e = row.constant
                        let end = Int(row.termEnd)
                        while t < end {
                            e += terms[t].coefficient * value[Int(terms[t].variable)]
                            t += 1
                        }
                        levels[Int(row.level)].error += row.relation.violation(e)
                    }
                }
            }
        }
        levels.sort { $0.priority > $1.priority }
        return levels
    }
}

/// Sums of errors by priority level, in the order ``LoweredSystem/levelErrors(_:)`` defines.
///
/// Why a short list, not a dictionary: a layout has a handful of
/// priorities, and hashing a key per soft row was most of the cost of
/// reading a solution (a solve of 10^4 self-sizing rows spent 44% of its
/// answer here). Consecutive rows mostly share a priority, so the last level
/// found is tried first.
struct LevelErrorSums {
    private var sums: [(priority: Double, sum: Double)] = []
    private var last = -1

    mutating func add(_ error: Double, priority p: Double) {
        if last < 0 || sums[last].priority != p {
            last = sums.firstIndex { $0.priority == p } ?? -1
            if last < 0 {
                sums.append((p, 0))
                last = sums.count - 1
            }
        }
        sums[last].sum += error
    }

    /// The levels, highest priority first.
    var levels: [LevelError] {
        sums.sorted { $0.priority > $1.priority }.map { LevelError(priority: Priority($0.priority), error: $0.sum) }
    }
}
