import BenchSchema
import Foundation

/// The per-solver table of a run — verdict counts, summed median load + solve
/// and the ratio to the reference — the one owner of the figures the console
/// summary and the Markdown both show.
public enum SolverTable {
    public static let verdicts = Verdict.allCases

    /// The header row: solver, the verdicts, load+solve, ratio to the reference, cases timed.
    public static func header(_ results: ResultsDocument) -> [String] {
        ["solver"] + verdicts.map(\.rawValue) + ["load+solve", "ratio to \(results.referenceName ?? "reference")", "cases timed"]
    }

    /// What the load+solve column sums, for a note under the table.
    public static let footnote = "load+solve: sum over the cases timed by both the solver and the reference of median load + median solve"

    /// One row per solver, in the run's solver order.
    ///
    /// Why only the cases both timed: a sum over different case sets would
    /// compare different work; the ratio is then the same work's time.
    /// - Complexity: O(cases × solvers × timings per case).
    public static func rows(_ results: ResultsDocument) -> [[String]] {
        let reference = results.referenceName
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
            return [solver.name] + verdicts.map { String(counts[$0] ?? 0) } + [timed == 0 ? "-" : formatSeconds(mine), ratio, String(timed)]
        }
    }

    /// The table as aligned text (first column left, the others right).
    public static func text(_ results: ResultsDocument) -> String {
        let table = [header(results)] + rows(results)
        let widths = table[0].indices.map { c in table.map { $0[c].count }.max() ?? 0 }
        return table.map { row in
            row.enumerated().map { c, s in
                let pad = String(repeating: " ", count: widths[c] - s.count)
                return c == 0 ? s + pad : pad + s
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
