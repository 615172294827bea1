import Foundation

/// The Markdown summary for a pull-request comment: conformance counts per
/// solver, the biggest changes against a baseline (when gated), the slowest cases.
public enum MarkdownReport {
    /// Text for a table cell or list item: pipes and newlines neutralised, and
    /// `& < >` as entities so a name cannot inject HTML into a PR comment.
    static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "`", with: "'")
    }


    public static func render(_ results: ResultsFile, findings: [GateFinding]? = nil, slowest: Int = 5) -> String {
        var out = "## layout-bench: \(results.cases.count) cases\n\n"
        let verdicts = ["pass", "fail", "unsupported", "error", "weighted-divergence"]
        out += "| solver | " + verdicts.joined(separator: " | ") + " |\n|---|" + verdicts.map { _ in "---:" }.joined(separator: "|") + "|\n"
        for solver in results.solvers {
            var counts: [String: Int] = [:]
            for c in results.cases { for r in c.results where r.solver == solver.name { counts[r.verdict, default: 0] += 1 } }
            out += "| \(cell(solver.name))\(solver.reference ? " (reference)" : "") | "
                + verdicts.map { String(counts[$0] ?? 0) }.joined(separator: " | ") + " |\n"
        }
        let failures = results.cases.flatMap { c in c.results.filter { $0.verdict == "fail" || $0.verdict == "error" }.map { (c.name, $0) } }
        if !failures.isEmpty {
            out += "\n**Failures**\n\n"
            for (name, r) in failures.prefix(20) {
                out += "- \(cell(name)) [\(cell(r.variant))] \(cell(r.solver)) **\(r.verdict)**: \(cell(r.reasons.first ?? ""))\n"
            }
        }
        if let findings {
            let moved = findings.filter { $0.kind != .noise }
            out += "\n### Against the baseline\n\n"
            if moved.isEmpty {
                out += "Nothing moved beyond the thresholds and the run's own spread"
                    + (findings.isEmpty ? "." : " (\(findings.count) change(s) within the noise).") + "\n"
            } else {
                out += "| | metric | case | baseline | now | change |\n|---|---|---|---:|---:|---:|\n"
                let ranked = moved.sorted { abs($0.change ?? .infinity) > abs($1.change ?? .infinity) }
                for f in ranked.prefix(15) {
                    out += "| \(f.kind.rawValue) | \(cell(f.metric)) | \(cell(f.subject)) | \(cell(f.baseline)) | \(cell(f.current)) | "
                        + (f.change.map { String(format: "%+.1f%%", $0 * 100) } ?? "") + " |\n"
                }
            }
        }
        // The slowest cases: median load + solve of each solver.
        var slow: [(String, String, Double)] = []
        for c in results.cases { for s in results.solvers { if let t = ResultsFile.loadSolve(c, s.name) { slow.append((c.name, s.name, t)) } } }
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
