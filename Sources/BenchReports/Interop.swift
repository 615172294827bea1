// wpt.fyi's interop view of a run: how many cases every solver that runs
// them passes, and which cases fail in one solver only (where that solver,
// not the case, is the likely cause).

import BenchSchema

/// The interop figures of a results document.
public struct Interop: Sendable {
    /// Cases run by at least two solvers (a solver that declined a case as
    /// unsupported did not run it).
    public private(set) var compared = 0
    /// Of those, the cases every solver that ran them passes (pass or a
    /// weighted divergence, in every variant).
    public private(set) var passedByAll = 0
    /// Per solver, in the document's solver order: the cases that fail (a
    /// fail or error in some variant) in that solver only, while every other
    /// solver that ran them passes.
    public private(set) var failsOnlyIn: [(solver: String, cases: [String])] = []

    /// The share of compared cases every solver passes (1 when none are compared).
    public var score: Double { compared == 0 ? 1 : Double(passedByAll) / Double(compared) }

    /// - Complexity: O(results).
    public init(_ document: ResultsDocument) {
        var only: [String: [String]] = [:]
        for c in document.cases {
            // solver -> passed (every variant it ran), in first-seen order
            var outcome: [(solver: String, passed: Bool)] = []
            for r in c.results where r.verdict != .unsupported {
                let passed = !r.verdict.isFailure
                if let i = outcome.firstIndex(where: { $0.solver == r.solver }) {
                    outcome[i].passed = outcome[i].passed && passed
                } else {
                    outcome.append((r.solver, passed))
                }
            }
            guard outcome.count >= 2 else { continue }
            compared += 1
            let failing = outcome.filter { !$0.passed }
            if failing.isEmpty { passedByAll += 1 }
            if failing.count == 1 { only[failing[0].solver, default: []].append(c.name) }
        }
        failsOnlyIn = document.solvers.map(\.name).compactMap { name in only[name].map { (name, $0) } }
    }

    /// Two lines for a summary: the score, and the cases that fail in one solver only (at most `limit` named each).
    public func text(limit: Int = 3) -> String {
        var out = "interop: \(passedByAll) of \(compared) cases pass in every solver that runs them"
            + String(format: " (%.1f%%)", score * 100) + "\n"
        for (solver, cases) in failsOnlyIn {
            out += "  fails only in \(solver): \(cases.count) case(s): " + cases.prefix(limit).joined(separator: ", ")
                + (cases.count > limit ? ", ..." : "") + "\n"
        }
        return out
    }
}
