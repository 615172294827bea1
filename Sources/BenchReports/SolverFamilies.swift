import BenchSchema

/// The run's solvers grouped by family (Cassowary, LP, exact, ...), the one
/// order the matrix and the solver profile tables use.
///
/// Why grouped: with ten or more columns a reader compares a solver with its
/// peers first (kiwi with the native Cassowary, HiGHS with GLPK); families
/// side by side make that comparison adjacent columns.
public enum SolverFamilies {
    /// One family and its solvers.
    public struct Group: Equatable, Sendable {
        public var family: String
        public var solvers: [ResultsDocument.Solver]
    }

    /// The families in the order of their first solver in the run, each with
    /// its solvers in run order (so the reference's family comes first when
    /// the reference is the first solver, as it is by default).
    /// - Complexity: O(solvers × families).
    public static func groups(_ results: ResultsDocument) -> [Group] {
        var groups: [Group] = []
        for solver in results.solvers {
            if let k = groups.firstIndex(where: { $0.family == solver.familyName }) {
                groups[k].solvers.append(solver)
            } else {
                groups.append(Group(family: solver.familyName, solvers: [solver]))
            }
        }
        return groups
    }

    /// The solvers in grouped order.
    public static func ordered(_ results: ResultsDocument) -> [ResultsDocument.Solver] { groups(results).flatMap(\.solvers) }

    /// The matrix's cell text for a verdict: short, so that ten or more
    /// columns fit a page; the full verdict is the cell's class and title.
    public static func shortLabel(_ verdict: Verdict) -> String {
        switch verdict {
        case .pass: return "pass"
        case .fail: return "FAIL"
        case .unsupported: return "–"
        case .error: return "error"
        case .weightedDivergence: return "≈"
        case .metamorphic: return "meta"
        }
    }

    /// One row per solver in grouped order: family, solver (the reference
    /// marked), version, semantics, capabilities ("-" where not recorded).
    public static func profileRows(_ results: ResultsDocument) -> [[String]] {
        ordered(results).map { s in
            [s.familyName, s.name + (s.reference ? " (reference)" : ""), s.profile?.version ?? "-",
             s.profile?.semantics ?? "-", s.profile?.capabilities ?? "-"]
        }
    }

    public static let profileHeader = ["family", "solver", "version", "semantics", "capabilities"]
}
