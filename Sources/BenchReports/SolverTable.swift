import BenchSchema
import Foundation

/// The per-solver table of a run — verdict counts, summed median load + solve,
/// the ratio to the reference and the rank — the one owner of the figures the
/// console summary, the Markdown and the HTML show.
public enum SolverTable {
    public static let verdicts = Verdict.allCases

    /// The header row: solver, the verdicts, load+solve, ratio to the reference, cases timed, rank.
    public static func header(_ results: ResultsDocument) -> [String] {
        ["solver"] + verdicts.map(\.rawValue) + ["load+solve", "ratio to \(results.referenceName ?? "reference")", "cases timed", "rank"]
    }

    /// What the load+solve and rank columns mean, for a note under the table.
    public static let footnote = "verdict columns count results, one per case and variant (and one per case with --metamorphic); "
        + "load+solve: sum over the cases timed by both the solver and the reference of median load + median solve; "
        + "rank: fewest cases with a wrong answer first, then most cases solved, then least load+solve time on the cases solved"

    /// A solver's standing in the error-first ranking.
    public struct Standing: Equatable, Sendable {
        public var solver: String
        /// Cases where some variant's answer is wrong (verdict fail, or
        /// metamorphic: two writings of one problem got answers that cannot both be right).
        public var wrong: Int
        /// Cases where every variant passes (pass or weighted divergence).
        public var solved: Int
        /// Summed median load + solve over the solved cases it timed.
        public var seconds: Double
    }

    /// The solvers ranked as SMT-COMP ranks them: a wrong answer is worse
    /// than any number of unsolved cases, so the count of wrong cases
    /// decides first, then the cases solved, then the time on them; ties
    /// keep the run's solver order.
    ///
    /// Why wrong answers first: a solver that answers everything fast but
    /// sometimes wrongly is useless as a layout engine, while one that
    /// declines a case is merely incomplete.
    /// - Complexity: O(cases × results per case + solvers log solvers).
    public static func standings(_ results: ResultsDocument) -> [Standing] {
        let unsorted = results.solvers.map { solver -> Standing in
            var standing = Standing(solver: solver.name, wrong: 0, solved: 0, seconds: 0)
            for c in results.cases {
                let mine = c.results.filter { $0.solver == solver.name }.map(\.verdict)
                if mine.contains(.fail) || mine.contains(.metamorphic) { standing.wrong += 1 }
                if !mine.isEmpty, mine.allSatisfy({ $0 == .pass || $0 == .weightedDivergence }) {
                    standing.solved += 1
                    standing.seconds += ResultsDocument.loadSolve(c, solver.name) ?? 0
                }
            }
            return standing
        }
        return unsorted.enumerated().sorted { a, b in
            let x = a.element, y = b.element
            if x.wrong != y.wrong { return x.wrong < y.wrong }
            if x.solved != y.solved { return x.solved > y.solved }
            if x.seconds != y.seconds { return x.seconds < y.seconds }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// One row per solver, in the run's solver order (``ranked(_:)`` orders them by rank).
    ///
    /// Why only the cases both timed: a sum over different case sets would
    /// compare different work; the ratio is then the same work's time.
    /// - Complexity: O(cases × solvers × timings per case).
    public static func rows(_ results: ResultsDocument) -> [[String]] {
        let reference = results.referenceName
        let rank = Dictionary(standings(results).enumerated().map { ($1.solver, $0 + 1) }, uniquingKeysWith: { a, _ in a })
        return results.solvers.map { solver in
            var counts: [Verdict: Int] = [:]
            for c in results.cases { for r in c.results where r.solver == solver.name { counts[r.verdict, default: 0] += 1 } }
            var mine = 0.0, theirs = 0.0, timed = 0
            for c in results.cases {
                guard let t = ResultsDocument.loadSolve(c, solver.name) else { continue }
                var r = 0.0
                if let reference {
                    guard let referenceTime = ResultsDocument.loadSolve(c, reference) else { continue }
                    r = referenceTime
                }
                mine += t
                theirs += r
                timed += 1
            }
            let ratio = reference != nil && theirs > 0 ? String(format: "%.3f", mine / theirs) : "-"
            return [solver.name] + verdicts.map { String(counts[$0] ?? 0) } + [timed == 0 ? "-" : formatSeconds(mine), ratio, String(timed),
                                                                               rank[solver.name].map(String.init) ?? "-"]
        }
    }

    /// The solvers with their rows, best rank first.
    public static func ranked(_ results: ResultsDocument) -> [(solver: ResultsDocument.Solver, row: [String])] {
        let order = standings(results).map(\.solver)
        let pairs = Array(zip(results.solvers, rows(results)))
        return order.compactMap { name in pairs.first { $0.0.name == name }.map { (solver: $0.0, row: $0.1) } }
    }

    /// The table as aligned text (first column left, the others right).
    public static func text(_ results: ResultsDocument) -> String {
        alignedTable([header(results)] + ranked(results).map(\.row), left: [0])
    }
}
