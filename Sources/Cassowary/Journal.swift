/// What a tableau change overwrote, kept while a row is added through an
/// artificial variable so that a failed add can be undone.
///
/// Why a journal rather than a copy of the tableau: the old undo kept
/// `let saved = tableau` and the first write copied every per-symbol array
/// (rows, columns, ranks, ...) in full, O(symbols) for each row added this
/// way. A decorated grid adds one such row per note, so its load was
/// quadratic in the grid's size. The journal costs what the artificial solve
/// changes, and the solve, successful almost always, simply drops it.
///
/// Undo replays the entries newest first, so each one restores the state
/// its write found; the result is the tableau as it was, row for row and
/// column for column (`IncrementalConsistencyTests` compares dumps).
enum TableauUndo {
    /// A row's state before a write: the row, whether it was basic, its
    /// `absorbed` flag and its owner.
    case row(Int32, Row, isBasic: Bool, absorbed: Bool, owner: Int32)
    /// A column's whole value before it was replaced, changed in place
    /// while it held its rows inline (a small value, no buffer shared), or
    /// moved between a list and a hash set (the change makes a new buffer,
    /// so the old one is kept, not copied).
    case column(Int32, ColumnSet)
    /// A row id inserted into, or removed from, a column whose rows are in
    /// a hash set (or inserted into a list) and stay in that tier. Why not
    /// its value: holding the set would make the change copy it, and the
    /// widest columns (a container edit that every row of a grid names) are
    /// the ones the artificial solve touches.
    case columnInserted(Int32, Int32)
    case columnRemoved(Int32, Int32)
    /// A row id removed from a column that lists its rows, and the position
    /// it had (the list's last row moved there).
    case columnListRemoved(Int32, Int32, at: Int32)
    /// An objective level's coefficient of a symbol before a write.
    case objective(level: Int, Symbol, Double)
    /// An objective level's constant before a write.
    case objectiveConstant(level: Int, Double)
    /// A reused symbol id's kind and rank before it was handed out again or
    /// released.
    case symbol(Int32, Symbol.Kind?, rank: Int32)
    /// An id taken from the free list (undo: give it back) ...
    case tookFreeID(Int32)
    /// ... or returned to it (undo: take it again).
    case freedID
}

/// The journal of one artificial add: the entries and the counters to put
/// back. Symbols made by appending (ids at or past `symbolCount`) are undone
/// by truncating the per-symbol arrays.
struct TableauJournal {
    var entries: [TableauUndo] = []
    let symbolCount: Int
    let pivotCount: Int
    let substitutedRowCount: Int
    let artificialFloor: Double
}
