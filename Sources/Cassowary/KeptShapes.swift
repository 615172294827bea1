// What a run of resizes reads again and again while the tableau's shape
// stays put: the rows an edit shifts, with their coefficients, and the order
// in which the variables' values are evaluated.
//
// Why: a resize of the container changes constants only (the edit's shift)
// and, when no row turns infeasible, no pivot follows; every value is then
// evaluated again over the same rows. At 10^4 self-sizing rows the shift
// visited 20,000 rows through a hashed column and each row's cells, about
// 88 ns a row against 18 ns at 10^3, and the evaluation walked every row's
// cells through a pointer each, 34 ns a variable against 16: the working
// set outgrew the caches and a resize grew as size^1.34 where its
// instructions grew as size^1.00 (docs/measurements.md#m-2026-11-28-kept-shapes).
// Kept as flat arrays in row order, both read memory in order and touch
// no row's cells at all.
//
// When: only on the second use at one shape (``Tableau/shapeVersion``), and
// only in a tableau of ``Tableau/keptShapesFloor`` symbols or more. A run of
// resizes whose dual simplex pivots each time (random layouts) changes the
// shape between any two uses, so its edit column is never kept; its plan
// is, because those pivots leave what a plan of external symbols reads as
// it was (``Tableau/evaluationVersion``).

/// The rows that contain an edit's error symbol, each with its coefficient,
/// in ascending row order, at one shape of the tableau.
struct EditColumn {
    /// The edit's error symbol.
    var symbol: Int32
    /// The shape this column was seen at (``Tableau/shapeVersion``).
    var version: Int
    /// Whether ``rows`` and ``coefficients`` hold the column (built on the
    /// second shift at one shape).
    var built = false
    var rows: [Int32] = []
    var coefficients: [Double] = []
    /// Whether each row's symbol is restricted (its row may turn infeasible).
    var restricted: [Bool] = []
}

/// The kept edit columns: one per edit a resize shifts (width, height),
/// at most ``limit``, the least recently seen replaced first.
struct EditColumns {
    static let limit = 4
    private(set) var columns: [EditColumn] = []

    /// The index of `symbol`'s column, made (not built) when it is new.
    mutating func index(of symbol: Int32, version: Int) -> Int {
        if let i = columns.firstIndex(where: { $0.symbol == symbol }) { return i }
        if columns.count >= Self.limit { columns.removeFirst() }
        columns.append(EditColumn(symbol: symbol, version: version))
        return columns.count - 1
    }

    subscript(i: Int) -> EditColumn {
        get { columns[i] }
        set { columns[i] = newValue }
    }
}

/// The evaluation of a list of symbols' values as flat steps, at one shape
/// of the tableau (``Tableau/values(of:into:scratch:)``).
///
/// Step `k` evaluates one basic external row: its constant (read live, since
/// a resize changes constants), plus each term's coefficient times either a
/// restricted basic symbol's constant (read live) or an earlier step's value.
/// The steps are in dependency order and each row's terms in its cell order,
/// so every value is the same sum, in the same order, as the walk of
/// ``Tableau/walk(from:rows:isBasic:memo:known:stack:)`` makes: bit for bit.
struct EvaluationPlan {
    /// The tableau's ``Tableau/epoch`` when planned, and its
    /// ``Tableau/evaluationVersion`` for a plan of external symbols only,
    /// `-1 - ` its ``Tableau/shapeVersion`` for any other.
    let epoch: Int
    let version: Int
    /// Whether every symbol planned is external (``Tableau/version(externalOnly:)``).
    let externalOnly: Bool
    /// The symbols planned (compared with `==`, O(1) for the same array).
    let symbols: [Symbol]
    /// The basic external row each step evaluates.
    var targets: [Int32] = []
    /// Where each step's terms end in ``coefficients`` and ``sources``.
    var termEnds: [Int32] = []
    var coefficients: [Double] = []
    /// A term's value: `>= 0` the constant of that restricted basic symbol's
    /// row, `< 0` step `-1 - source`'s value.
    var sources: [Int32] = []
    /// Each planned symbol's value: as a source, or ``zero`` for a
    /// nonbasic symbol.
    var outputs: [Int32] = []
    static let zero = Int32.min
}
