import BenchSchema
import BenchHarness
import BenchReports
import Foundation
import LayoutModel

/// The table a user sees at the end of `run`.
enum Summary {

    static func text(_ results: RunResults, _ document: ResultsDocument, file: String, quiet: Bool, strict: Bool) -> String {
        let cases = results.cases
        let failures = cases.flatMap { c in c.results.filter { $0.verdict.isFailure }.map { (c.name, $0) } }
        let external = Set(results.solvers.filter(\.isExternal).map(\.name))
        let counted = failures.filter { strict || !external.contains($0.1.solver) }.count + results.problems.count
        let externalOnly = failures.count + results.problems.count - counted
        var verdict = counted > 0 ? "\(counted) failure(s)" : "all pass"
        if counted == 0 && externalOnly > 0 {
            verdict = "built-in solvers all pass; \(externalOnly) external-solver failure(s) below (they count with --strict)"
        }
        if strict && !results.unavailable.isEmpty {
            let missing = "\(results.unavailable.count) solver(s) unavailable (a failure with --strict)"
            verdict = counted > 0 ? verdict + ", " + missing : missing
        }
        let headline = "layout-bench run: \(cases.count) cases, \(results.solvers.count) solvers, \(verdict) — \(file)\n"
        if quiet { return headline + observedLine(document) }

        var out = headline + "\n" + SolverTable.text(document)
        out += "(" + SolverTable.footnote + ")\n"
        out += FrameBudget(document).text()
        out += observedLine(document)
        if results.solvers.count > 1 { out += "\n" + Interop(document).text() }
        let versions = VersionMatrix(document).text()
        if !versions.isEmpty { out += versions }
        if !results.unavailable.isEmpty {
            out += "\nsolvers left out (could not start; `scripts/layout-bench` installs the default adapters' Python packages, `scripts/install-solvers` the opt-in ones'):\n"
            for entry in results.unavailable { out += "  \(entry.spec.name): \(entry.reason)\n" }
        }
        let untimed = results.solvers.compactMap { spec -> String? in
            let count = cases.filter { $0.untimed[spec.name] != nil }.count
            return count == 0 ? nil : "  \(spec.name): \(count) case(s) not timed: its answers carried no time_s"
        }
        if !untimed.isEmpty { out += "\nnot timed (the protocol's time_s was missing; never counted as 0 s):\n" + untimed.joined(separator: "\n") + "\n" }
        if !results.problems.isEmpty {
            out += "\ncases that could not be read:\n"
            for p in results.problems { out += "  \(p.name): \(p.message)\n" }
        }
        if !failures.isEmpty {
            out += "\nfailures:\n"
            for (name, r) in failures.prefix(30) {
                out += "  \(name) [\(r.variant)] \(r.solver) \(r.verdict.rawValue): \(r.reasons.first ?? "")\n"
            }
            if failures.count > 30 { out += "  ... \(failures.count - 30) more in the results file\n" }
        }
        let divergences = cases.flatMap { c in c.results.filter { $0.verdict == .weightedDivergence }.map { (c.name, $0) } }
        if !divergences.isEmpty {
            out += "\nweighted divergences (a weighted solver trading priority levels; not failures):\n"
            for (name, r) in divergences.prefix(10) {
                out += "  \(name) [\(r.variant)] \(r.solver): \(r.reasons.first ?? "")\n"
            }
            if divergences.count > 10 { out += "  ... \(divergences.count - 10) more in the results file\n" }
        }
        return out
    }

    /// `real screens: N of M views match Xcode (cassowary), ...` and the causes of the differences.
    static func observedLine(_ document: ResultsDocument) -> String {
        let tallies = document.observedTallies()
        guard let first = tallies.first else { return "" }
        func percent(_ a: Int, _ b: Int) -> String { String(format: "%.1f%%", 100 * Double(a) / Double(max(b, 1))) }
        var out = "\nreal screens (\(first.screens)): " + tallies.map {
            "\($0.matched) of \($0.total) views match Xcode (\(percent($0.matched, $0.total)), \($0.solver))"
        }.joined(separator: ", ") + "\n"
        for t in tallies where !t.causes.isEmpty {
            out += "  differences (\(t.solver)): " + ObservedCause.allCases.compactMap { cause in
                t.causes[cause.rawValue].map { "\($0) \(cause.rawValue)" }
            }.joined(separator: ", ") + "\n"
        }
        return out
    }
}
