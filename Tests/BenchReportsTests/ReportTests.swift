import BenchSchema
import BenchReports
import BenchStatistics
import Foundation
import Testing

@Suite("Reports")
struct ReportTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func fixture() throws -> ResultsDocument {
        try ResultsDocument.read(here.appendingPathComponent("Fixtures/results.json").path)
    }

    /// Compares with `Snapshots/NAME`; `RECORD_SNAPSHOTS=1` rewrites it.
    func snapshot(_ text: String, _ name: String) throws {
        let url = Self.here.appendingPathComponent("Snapshots/\(name)")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try Data(text.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text == expected, "\(name) changed; rerun with RECORD_SNAPSHOTS=1 if intended")
    }

    @Test("CSV snapshot: tidy rows, quoting for any case name")
    func csv() throws {
        let text = try CSVReport.render(try Self.fixture())
        try snapshot(text, "results.csv")
        #expect(text.contains("\"seed/with,comma \"\"quoted\"\" <b>\",default,cassowary,load,pass"))
        let header = "case,variant,solver,phase,verdict,views,constraints,min_s,median_s,median_ci_low_s,median_ci_high_s,p90_s,max_s,n,iterations,allocations,reasons"
        #expect(text.split(separator: "\n").first.map(String.init) == header)
        // The allocation column comes from the counters; phases without one stay empty.
        #expect(text.contains(",cassowary,load,pass,1,3,0.001,0.0011,,,0.0012,0.002,5,1,213,\n"))
        #expect(text.contains(",glpk,solve,pass,1,3,0.006,0.006,,,0.0061,0.007,5,1,,\n"))
        // The reasons of a verdict, in their own column (quoted: they contain commas and quotes).
        #expect(text.contains(",wide,cassowary,check,fail,1,3,,,,,,,,,,\"a.x = 11, reference 10 <script>alert(1)</script> &amp;\"\n"))
        // Measured precision, no binary float noise.
        #expect(CSVReport.number(0.000_211_507_000_000_000_02) == "0.000211507")
        #expect(CSVReport.number(1.5e-7) == "1.5e-07" && CSVReport.number(2) == "2.0" && CSVReport.number(.nan) == "")
    }

    @Test("Markdown snapshot: counts, failures, slowest cases")
    func markdown() throws {
        try snapshot(MarkdownReport.render(try Self.fixture()), "summary.md")
        // GitHub's emphasis and links are escaped in names and reasons.
        var file = try Self.fixture()
        file.cases[0].name = "grid_*bold*_[x](y)"
        let text = MarkdownReport.render(file)
        #expect(text.contains(#"grid\_\*bold\*\_\[x\](y)"#), "\(text)")
        #expect(!text.contains("grid_*bold*"))
    }

    @Test("HTML: self-contained, every name and reason escaped, pictures and plots present")
    func html() throws {
        let html = HTMLReport.render(try Self.fixture())
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // One inline script (filters, sorting), nothing loaded from anywhere.
        #expect(html.components(separatedBy: "<script").count == 2 && !html.contains("<script src"))
        #expect(!html.contains("http://") || !html.contains("src=\"http"))
        #expect(html.contains("seed/with,comma &quot;quoted&quot; &lt;b&gt;"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp;"))
        #expect(html.contains("<svg"))
        // The wide variant's view differs from the reference: outlined in red.
        #expect(html.contains("stroke=\"#e00000\""))
        // The family has two sizes: a scaling plot, every point in a table, no exponent from two points.
        #expect(html.contains("alternating-grid: load"))
        #expect(html.contains("cassowary: 2 size(s): no exponent (needs 3)"))
        #expect(html.contains("alternating-grid: allocations in load"))
        #expect(html.contains("<table class=\"points\"><tr><th>constraints</th><th>cassowary</th>"))
        // The timing table: median, interval, ratio to the reference.
        #expect(html.contains("<h2 id=\"timings\">Timings</h2>") && html.contains("ratio to glpk"))
    }

    @Test("ten or more solvers: grouped by family in the matrix and the profile table, the reference marked")
    func solverFamilies() throws {
        var file = try Self.fixture()
        let base = file.solvers
        #expect(SolverFamilies.groups(file).map(\.family) == ["other"])  // a file from before families
        let profile = ResultsDocument.Solver.Profile(version: "1.0", semantics: "lexicographic", incremental: false, edits: true, ambiguity: true)
        // Interleaved in run order: the groups keep the order of each family's first solver.
        file.solvers = [
            ResultsDocument.Solver(name: "lp-a", kind: "external", reference: false, family: "LP", profile: profile),
            ResultsDocument.Solver(name: "cw-a", kind: "external", reference: false, family: "Cassowary"),
        ] + base.map { var s = $0; s.family = s.name == "glpk" ? "LP" : "Cassowary"; return s }
        #expect(SolverFamilies.groups(file).map(\.family) == ["LP", "Cassowary"])
        #expect(SolverFamilies.ordered(file).map(\.name) == ["lp-a", "glpk", "cw-a", "cassowary"])
        let rows = SolverFamilies.profileRows(file)
        #expect(rows[0] == ["LP", "lp-a", "1.0", "lexicographic", "edits, ambiguity"])
        #expect(rows[1][1] == "glpk (reference)" && rows[2][2] == "-")
        let html = HTMLReport.render(file)
        #expect(html.contains("<th colspan=\"2\" class=\"family\">LP</th><th colspan=\"2\" class=\"family\">Cassowary</th>"))
        #expect(html.contains("<th class=\"solver reference\" title=\"glpk: the reference\">glpk ★</th>"))
        // A solver that ran no case of a row: "–" (unsupported), said in the title.
        #expect(html.contains("title=\"lp-a: not run\"><a href=\"#case-0\">–</a>"))
    }

    @Test("frame budget: the share of timed cases within 8.3 and 16.7 ms, resizes within 1 ms, the largest grid in a frame")
    func frameBudget() throws {
        var file = try Self.fixture()
        // glpk: 10 ms on its one case (within 16.7, not 8.3); cassowary: three cases, all within 8.3 ms.
        var budget = FrameBudget(file)
        #expect(budget.rows.map(\.solver) == ["glpk", "cassowary"] || budget.rows.map(\.solver) == ["cassowary", "glpk"])
        let glpk = try #require(budget.rows.first { $0.solver == "glpk" })
        #expect(glpk.timed == 1 && glpk.within60 == 1 && glpk.within120 == 0 && glpk.largestGrid == nil)
        let cassowary = try #require(budget.rows.first { $0.solver == "cassowary" })
        #expect(cassowary.timed == 3 && cassowary.within120 == 3 && cassowary.largestGrid?.name == "family/alternating-grid-r100")
        // The larger grid over a frame: the smaller one is the largest in budget.
        let big = try #require(file.cases.firstIndex { $0.name == "family/alternating-grid-r100" })
        let load = try #require(file.cases[big].timings.firstIndex { $0.solver == "cassowary" && $0.phase == .load })
        file.cases[big].timings[load].median = 0.02
        budget = FrameBudget(file)
        let slower = try #require(budget.rows.first { $0.solver == "cassowary" })
        #expect(slower.within60 == 2 && slower.largestGrid?.name == "family/alternating-grid-r10")
        #expect(budget.text().contains("66.7% (2/3)"))
        #expect(MarkdownReport.render(file).contains("**Frame budget**"))
        #expect(HTMLReport.render(file).contains("<h3 id=\"frame-budget\">Frame budget</h3>"))
    }

    @Test("scaling: an exponent and its R² from three sizes or more")
    func scalingFit() throws {
        var file = try Self.fixture()
        // A third size of the family, at 10x the constraints and 10x the time and allocations.
        let big = try #require(file.cases.first { $0.name == "family/alternating-grid-r100" })
        var bigger = big
        bigger.name = "family/alternating-grid-r1000"
        bigger.constraints = big.constraints * 10
        bigger.timings = big.timings.map { var t = $0; t.median *= 10; return t }
        bigger.counters = big.counters.mapValues { $0.mapValues { $0 * 10 } }
        file.cases.append(bigger)
        let html = HTMLReport.render(file)
        #expect(html.contains("cassowary: n^1.0") && html.contains(", 3 sizes)"), "\(html)")
        // Allocations too (1,200 at 86, 11,000 at 806, 110,000 at 8,060 constraints).
        #expect(html.contains("cassowary: n^1.00 (R² 1.000, 3 sizes)"))
    }

    @Test("against a baseline, each timing shows its change, interval and the gate's decision")
    func timingsAgainstBaseline() throws {
        let file = try Self.fixture()
        let report = GateReport(findings: [
            GateFinding(kind: .regression, metric: "time/load", subject: "family/alternating-grid-r100 cassowary", baseline: "1 ms",
                        current: "1.3 ms", change: 0.3, interval: Interval(estimate: 0.3, low: 0.2, high: 0.4), threshold: 0.25),
            GateFinding(kind: .noise, metric: "time/solve", subject: "family/alternating-grid-r100 cassowary", baseline: "1 ms",
                        current: "1.01 ms", change: 0.01, interval: Interval(estimate: 0.01, low: -0.05, high: 0.07), threshold: 0.25),
        ], confidence: 0.99, baselineRuns: 5)
        let html = HTMLReport.render(file, gate: report)
        #expect(html.contains("<td class=\"regressed\" data-value=\"0.3\">+30.0%</td><td>+20.0% … +40.0%</td><td class=\"name regressed\">regressed</td>"))
        // Not significant: not coloured.
        #expect(html.contains("<td data-value=\"0.01\">+1.0%</td><td>-5.0% … +7.0%</td><td class=\"name \">change within noise threshold</td>"))
        // The decision first, as a banner naming the regression; a table of contents.
        let banner = try #require(html.range(of: "<div class=\"banner regressed\"><strong>Gate: REGRESSION — 1 finding(s)</strong>"))
        #expect(html.contains("time/load family/alternating-grid-r100 cassowary: 1 ms → 1.3 ms (+30.0%)"))
        let summary = try #require(html.range(of: "<h2 id=\"summary\">Summary</h2>"))
        #expect(banner.lowerBound < summary.lowerBound)
        #expect(html.contains("<nav class=\"toc\"><a href=\"#summary\">Summary</a>"))
        #expect(!HTMLReport.render(file).contains("class=\"banner"))
    }

    @Test("HTML tells the truth: failures first as text, collapsed views marked, unsatisfiable answers named, free views hatched")
    func truthfulHTML() throws {
        var file = try Self.fixture()
        let html = HTMLReport.render(file)
        // The failure as text, before the matrix, linked to its picture.
        let failures = try #require(html.range(of: "<h2 id=\"failures\">Failures and divergences</h2>"))
        let matrix = try #require(html.range(of: "<h2 id=\"conformance\">Conformance</h2>"))
        #expect(failures.lowerBound < matrix.lowerBound)
        #expect(html.contains("[wide] cassowary fail</b>: a.x = 11, reference 10"))
        #expect(html.contains("<a href=\"#panel-0-1-0\">picture</a>") && html.contains("id=\"panel-0-1-0\""))
        // The source file and line a failure points at.
        var located = file
        if let k = located.cases[0].results.firstIndex(where: { $0.verdict == .fail }) {
            located.cases[0].results[k].reasons = ["line 7: a: expected 0 0 10 10, got 0 0 10 0"]
            #expect(HTMLReport.render(located).contains(" · source \(located.cases[0].source):7"))
        } else {
            Issue.record("the fixture has no failure")
        }
        // A differing view: outlined, and the reference's frame dashed over it.
        #expect(html.contains("a in the reference: "))
        // A collapsed view, an unsatisfiable answer, an ambiguous view.
        let c = try #require(file.cases.firstIndex { $0.results.contains { $0.variant == "default" && $0.solver == "cassowary" && !$0.frames.isEmpty } })
        let k = try #require(file.cases[c].results.firstIndex { $0.variant == "default" && $0.solver == "cassowary" })
        let view = try #require(file.cases[c].results[k].frames.keys.sorted().first { $0 != "super" })
        file.cases[c].results[k].frames[view]?[2] = 0
        if let g = file.cases[c].results.firstIndex(where: { $0.variant == "default" && $0.solver == "glpk" }) {
            file.cases[c].results[g].ambiguous = [view]
            file.cases[c].results[g].status = "solved"
        }
        let collapsed = HTMLReport.render(file)
        #expect(collapsed.contains("\(view): zero width, drawn as a cross"))
        #expect(collapsed.contains("url(#lb-hatch)") && collapsed.contains("hatched: \(view)"))
        file.cases[c].results[k].status = "unsatisfiable"
        file.cases[c].results[k].conflict = ["t.layout:3", "t.layout:4"]
        let unsat = HTMLReport.render(file)
        #expect(unsat.contains("Unsatisfiable: no layout meets every required constraint.") && unsat.contains("Conflict: t.layout:3; t.layout:4"))
    }

    @Test("reading something that is not a results file is a clear error")
    func badInput() throws {
        #expect(throws: ResultsDocument.ReadError.self) { try ResultsDocument.decode(Data("{}".utf8), name: "x.json") }
        #expect(throws: ResultsDocument.ReadError.self) { try ResultsDocument.read("/nonexistent.json") }
    }
}

