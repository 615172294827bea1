import BenchSchema
import Foundation

/// The Markdown summary for a pull-request comment: conformance counts per
/// solver, the biggest changes against a baseline (when gated), the slowest cases.
public enum MarkdownReport {
    /// Text for a table cell or list item: pipes and newlines neutralised, and
    /// `& < >` as entities so a name cannot inject HTML into a PR comment.
    static func cell(_ s: String) -> String {
        // Why `*`, `_`, `[`, `]` and `\` too: GitHub renders `a*b*c` or
        // `x_y_z` as emphasis and `[x](y)` as a link inside a table cell.
        s.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "*", with: "\\*").replacingOccurrences(of: "_", with: "\\_")
            .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "`", with: "'")
    }


    /// The solver table (verdicts, load + solve, the ratio to the reference,
    /// rank), the solvers' profiles by family and the frame budget.
    static func solverTables(_ results: ResultsDocument) -> String {
        var out = ""
        // The console's table: verdicts, load + solve and the ratio to the reference.
        let header = SolverTable.header(results)
        out += "| " + header.map(cell).joined(separator: " | ") + " |\n|---|" + header.dropFirst().map { _ in "---:" }.joined(separator: "|") + "|\n"
        for (solver, row) in SolverTable.ranked(results) {
            out += "| \(cell(row[0]))\(solver.reference ? " (reference)" : "") | " + row.dropFirst().map(cell).joined(separator: " | ") + " |\n"
        }
        out += "\n<sub>" + cell(SolverTable.footnote) + "</sub>\n"
        if results.solvers.contains(where: { $0.profile != nil }) {
            out += "\n| " + SolverFamilies.profileHeader.joined(separator: " | ") + " |\n|---|---|---|---|---|\n"
            for row in SolverFamilies.profileRows(results) { out += "| " + row.map(cell).joined(separator: " | ") + " |\n" }
        }
        let budget = FrameBudget(results)
        if !budget.rows.isEmpty {
            out += "\n**Frame budget**\n\n| " + FrameBudget.header.map(cell).joined(separator: " | ") + " |\n|---|---:|---:|---:|---|\n"
            for row in budget.cells { out += "| " + row.map(cell).joined(separator: " | ") + " |\n" }
            out += "\n<sub>" + cell(FrameBudget.footnote) + "</sub>\n"
        }
        return out
    }

    public static func render(_ results: ResultsDocument, gate: GateReport? = nil, slowest: Int = 5) -> String {
        let count = results.cases.count
        var out = "## layout-bench: \(count) \(count == 1 ? "case" : "cases")\n\n"
        out += solverTables(results)
        if results.solvers.count > 1 {
            let interop = Interop(results)
            out += "\nInterop: \(interop.passedByAll) of \(interop.compared) cases pass in every solver that runs them"
                + String(format: " (%.1f%%)", interop.score * 100) + ".\n"
            for (solver, cases) in interop.failsOnlyIn {
                out += "- fails only in \(cell(solver)): " + cases.prefix(10).map(cell).joined(separator: ", ") + (cases.count > 10 ? ", ..." : "") + "\n"
            }
        }
        for family in VersionMatrix(results).families {
            out += "\nVersions of \(cell(family.base)) (" + family.members.map { cell($0.version) }.joined(separator: ", ") + "): "
                + (family.changes.isEmpty ? "the same verdict in every case.\n" : "verdicts change in \(family.changes.count) case(s).\n")
            for (name, steps) in family.changes.prefix(20) {
                out += "- \(cell(name)): " + steps.map { "\($0.from) → \($0.to) at \(cell($0.version))" }.joined(separator: "; ") + "\n"
            }
        }
        let externals = results.solvers.filter { $0.command != nil }
        if !externals.isEmpty {
            out += "\nExternal solvers: " + externals.map { "\(cell($0.name)) (\(cell($0.provenance)))" }.joined(separator: ", ") + "\n"
        }
        for entry in results.unavailable_solvers ?? [] { out += "\nLeft out (could not start): \(cell(entry.name)): \(cell(entry.reason))\n" }
        let failures = results.cases.flatMap { c in c.results.filter { $0.verdict.isFailure }.map { (c.name, $0) } }
        if !failures.isEmpty {
            out += "\n**Failures**\n\n"
            for (name, r) in failures.prefix(20) {
                out += "- \(cell(name)) [\(cell(r.variant))] \(cell(r.solver)) **\(r.verdict.rawValue)**: \(cell(r.reasons.first ?? ""))\n"
            }
        }
        if let gate {
            let moved = gate.findings.filter { $0.kind != .noise }
            out += "\n### Against the baseline\n\n"
            if let drift = gate.drift {
                out += "Machine drift (the yardstick, now against the baseline): \(GateText.change(drift.estimate)) \(GateText.interval(drift))"
                    + (gate.driftCorrected ? ", divided out of every time.\n\n" : ", within the dead band: not corrected.\n\n")
            }
            if moved.isEmpty {
                out += "Nothing moved significantly beyond its threshold"
                    + (gate.findings.isEmpty ? "." : " (\(gate.findings.count) comparison(s) within the noise).") + "\n"
            } else {
                // Every finding that moved is listed: a gate that fails must say
                // all of why. Regressions first, then the largest changes.
                out += "| decision | metric | case | baseline | now | change | interval (\(String(format: "%.0f%%", gate.confidence * 100))) | threshold |\n"
                    + "|---|---|---|---:|---:|---:|---:|---:|\n"
                let ranked = moved.sorted {
                    ($0.kind == .regression ? 0 : 1, -abs($0.change ?? .infinity)) < ($1.kind == .regression ? 0 : 1, -abs($1.change ?? .infinity))
                }
                for f in ranked {
                    out += "| \(f.kind.rawValue) | \(cell(f.metric)) | \(cell(f.subject)) | \(cell(f.baseline)) | \(cell(f.current)) | "
                        + (f.change.map(GateText.change) ?? "") + " | " + (f.interval.map(GateText.interval) ?? "") + " | "
                        + (f.threshold.map { String(format: "%.0f%%", $0 * 100) } ?? "") + " |\n"
                }
            }
        }
        // The slowest cases: median load + solve of each solver.
        var slow: [(String, String, Double)] = []
        for c in results.cases { for s in results.solvers { if let t = ResultsDocument.loadSolve(c, s.name) { slow.append((c.name, s.name, t)) } } }
        if !slow.isEmpty {
            out += "\n### Slowest cases (median load + solve)\n\n| case | solver | time |\n|---|---|---:|\n"
            for (name, solver, t) in slow.sorted(by: { $0.2 > $1.2 }).prefix(slowest) {
                out += "| \(cell(name)) | \(cell(solver)) | \(formatSeconds(t)) |\n"
            }
        }
        out += "\n<sub>\(cell(results.machine.cpu)), \(results.machine.cores) cores; \(cell(results.machine.swift)); GLPK \(results.machine.glpk)"
            + (results.machine.commit.map { "; commit \($0.prefix(12))" } ?? "") + "</sub>\n"
        return out
    }
}
