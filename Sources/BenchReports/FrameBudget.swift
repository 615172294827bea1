// Frame-budget scores: which layouts each solver lays out within a display
// frame. Users of a layout engine think in frames (16.7 ms at 60 Hz, 8.3 ms
// at 120 Hz), not in microseconds per constraint.

import BenchMetrics
import BenchSchema
import Foundation

/// Per solver, the share of the cases it timed that fit a frame budget, and
/// the largest alternating grid of the run it lays out within one frame.
///
/// What is compared with the budget, and why:
/// - **load + solve** (median load + median solve: a screen laid out from
///   nothing) against 16.7 ms and 8.3 ms;
/// - **resize** (the median of one width change: an edit of the width's
///   edit variable, a rotation's work) against 1 ms: incremental work must
///   leave most of a frame for drawing.
///
/// Why add + remove is not scored: a rebuilding adapter (the LP and SMT
/// ones) only records an added row and solves at the next request, so its
/// add + remove time is bookkeeping, while Cassowary's is the insertion; the
/// same column would compare different work.
///
/// Medians, as every other figure of the report: a frame budget is about
/// the typical frame. External solvers are judged by their own `time_s`
/// (protocol §7), so the pipe is not counted against them.
public struct FrameBudget: Sendable {
    /// 60 Hz and 120 Hz, in seconds.
    public static let frame60 = 1.0 / 60, frame120 = 1.0 / 120
    /// The budget of an incremental operation, in seconds.
    public static let edit = 0.001

    /// One solver's scores: counts of cases timed and of cases within budget.
    public struct Row: Sendable {
        public var solver: String
        public var timed = 0, within60 = 0, within120 = 0
        public var resized = 0, resizeWithin = 0
        /// The largest `family/alternating-grid-rN` case whose load + solve
        /// fits 16.7 ms, and its constraint count.
        public var largestGrid: (name: String, constraints: Int)?
    }

    /// One row per solver that timed at least one case, in the document's solver order.
    public private(set) var rows: [Row] = []

    /// - Complexity: O(cases × timings per case × solvers).
    public init(_ document: ResultsDocument) {
        for solver in document.solvers {
            var row = Row(solver: solver.name)
            for c in document.cases {
                if let t = ResultsDocument.loadSolve(c, solver.name) {
                    row.timed += 1
                    if t <= Self.frame60 { row.within60 += 1 }
                    if t <= Self.frame120 { row.within120 += 1 }
                    if t <= Self.frame60, c.name.hasPrefix("family/alternating-grid-"),
                       c.constraints > (row.largestGrid?.constraints ?? -1) {
                        row.largestGrid = (c.name, c.constraints)
                    }
                }
                if let t = c.timings.first(where: { $0.solver == solver.name && $0.phase == .resize })?.median {
                    row.resized += 1
                    if t <= Self.edit { row.resizeWithin += 1 }
                }
            }
            if row.timed > 0 { rows.append(row) }
        }
    }

    /// "97.5% (39/40)", or "-" when nothing was timed.
    static func share(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : String(format: "%.1f%% (%d/%d)", 100 * Double(part) / Double(whole), part, whole)
    }

    /// The header of the table.
    public static let header = ["solver", "load+solve ≤ 8.3 ms", "≤ 16.7 ms", "resize ≤ 1 ms", "largest grid in 16.7 ms"]

    /// What the columns mean, for a note under the table.
    public static let footnote = "medians; load+solve: a screen laid out from nothing, against a frame at 120 Hz and 60 Hz; "
        + "resize: one width change (one edit); add+remove is not scored (a rebuilding adapter defers it to its next solve); "
        + "largest grid: the largest alternating grid of this run whose load+solve fits one 60 Hz frame"

    /// The rows as table cells.
    public var cells: [[String]] {
        rows.map { r in
            [r.solver, Self.share(r.within120, r.timed), Self.share(r.within60, r.timed), Self.share(r.resizeWithin, r.resized),
             r.largestGrid.map { "\($0.name) (\($0.constraints) constraints)" } ?? "-"]
        }
    }

    /// The table as aligned text, with its heading; empty when no solver was timed.
    public func text() -> String {
        guard !rows.isEmpty else { return "" }
        let lines = alignedTable([Self.header] + cells, left: [0, Self.header.count - 1])
        return "\nframe budget:\n" + lines + "(" + Self.footnote + ")\n"
    }
}
