import BenchReports
import Foundation
import Testing

@Suite("Reports")
struct ReportTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func fixture() throws -> ResultsFile {
        try ResultsFile.read(here.appendingPathComponent("Fixtures/results.json").path)
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
        #expect(text.split(separator: "\n").first == "case,variant,solver,phase,verdict,views,constraints,min_s,median_s,p90_s,max_s,n,allocations")
        // The allocation column comes from the counters; phases without one stay empty.
        #expect(text.contains(",cassowary,load,pass,1,3,0.001,0.0011,0.0012,0.002,5,213\n"))
        #expect(text.contains(",glpk,solve,pass,1,3,0.006,0.006,0.0061,0.007,5,\n"))
    }

    @Test("Markdown snapshot: counts, failures, slowest cases")
    func markdown() throws {
        try snapshot(MarkdownReport.render(try Self.fixture()), "summary.md")
    }

    @Test("HTML: self-contained, every name and reason escaped, pictures and plots present")
    func html() throws {
        let html = HTMLReport.render(try Self.fixture())
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") || !html.contains("src=\"http"))
        #expect(html.contains("seed/with,comma &quot;quoted&quot; &lt;b&gt;"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp;"))
        #expect(html.contains("<svg"))
        // The wide variant's view differs from the reference: outlined in red.
        #expect(html.contains("stroke=\"#e00000\""))
        // The family has two sizes: a scaling plot with a fitted exponent.
        #expect(html.contains("alternating-grid: load"))
        #expect(html.contains("cassowary: n^1.0"))
        // Allocations of a load against size, from the counters: 1,200 at 86
        // constraints and 11,000 at 806 is an exponent of 0.99.
        #expect(html.contains("alternating-grid: allocations in load"))
        #expect(html.contains("cassowary: n^0.99"))
    }

    @Test("reading something that is not a results file is a clear error")
    func badInput() throws {
        #expect(throws: ResultsFile.ReadError.self) { try ResultsFile.decode(Data("{}".utf8), name: "x.json") }
        #expect(throws: ResultsFile.ReadError.self) { try ResultsFile.read("/nonexistent.json") }
    }
}

@Suite("Gates")
struct GateTests {
    func results(_ edit: (inout [String: Any]) -> Void) throws -> ResultsFile {
        let data = try Data(contentsOf: ReportTests.here.appendingPathComponent("Fixtures/results.json"))
        var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        edit(&object)
        return try ResultsFile.decode(JSONSerialization.data(withJSONObject: object), name: "edited")
    }

    /// Multiplies one timing's statistics.
    func scaled(_ object: inout [String: Any], caseIndex: Int, solver: String, phase: String, by factor: Double, spread: Double? = nil) {
        var cases = object["cases"] as? [[String: Any]] ?? []
        var timings = cases[caseIndex]["timings"] as? [[String: Any]] ?? []
        for i in timings.indices where timings[i]["solver"] as? String == solver && timings[i]["phase"] as? String == phase {
            for key in ["min", "median", "p90", "max"] { timings[i][key] = (timings[i][key] as? Double ?? 0) * factor }
            if let spread, let min = timings[i]["min"] as? Double { timings[i]["p90"] = min * (1 + spread) }
        }
        cases[caseIndex]["timings"] = timings
        object["cases"] = cases
    }

    @Test("unchanged results pass")
    func unchanged() throws {
        let r = try results { _ in }
        let findings = Gate.compare(r, with: Baseline.from(r), threshold: nil)
        #expect(Gate.outcome(findings, lenient: false) == .pass)
    }

    @Test("a 2x slower phase is a regression; 2x faster is an improvement (stale baseline)")
    func times() throws {
        let base = Baseline.from(try results { _ in })
        // Cassowary's load, measured as a ratio to the reference's load + solve in the same run.
        let slower = try results { scaled(&$0, caseIndex: 0, solver: "cassowary", phase: "load", by: 2) }
        let findings = Gate.compare(slower, with: base, threshold: nil)
        #expect(Gate.outcome(findings, lenient: false) == .regression)
        #expect(findings.first?.kind == .regression && findings.first?.metric == "time/load")
        #expect(findings.first?.subject == "seed/with,comma \"quoted\" <b> cassowary")
        let faster = try results { scaled(&$0, caseIndex: 0, solver: "cassowary", phase: "load", by: 0.5) }
        #expect(Gate.outcome(Gate.compare(faster, with: base, threshold: nil), lenient: false) == .improvementsOnly)
    }

    @Test("a change inside the run's own spread is noise; times under the floor are not gated")
    func noise() throws {
        let base = Baseline.from(try results { _ in })
        // 30% slower, but the run's repetitions spread over 50%: noise.
        let noisy = try results { scaled(&$0, caseIndex: 0, solver: "cassowary", phase: "load", by: 1.3, spread: 0.5) }
        let findings = Gate.compare(noisy, with: base, threshold: nil)
        #expect(Gate.outcome(findings, lenient: false) == .pass)
        #expect(findings.contains { $0.kind == .noise && $0.metric == "time/load" })
        // 10 µs doubled: below the 0.2 ms floor.
        let tiny = try results { scaled(&$0, caseIndex: 1, solver: "cassowary", phase: "solve", by: 2) }
        #expect(Gate.outcome(Gate.compare(tiny, with: base, threshold: nil), lenient: false) == .pass)
    }

    @Test("the reference's own times are corrected for the run's drift")
    func referenceDrift() throws {
        let base = Baseline.from(try results { _ in })
        // Both reference timings 40% slower: the machine, not the code.
        let drifted = try results { object in
            scaled(&object, caseIndex: 0, solver: "glpk", phase: "load", by: 1.4)
            scaled(&object, caseIndex: 0, solver: "glpk", phase: "solve", by: 1.4)
            scaled(&object, caseIndex: 0, solver: "cassowary", phase: "load", by: 1.4)
            scaled(&object, caseIndex: 0, solver: "cassowary", phase: "solve", by: 1.4)
        }
        #expect(Gate.outcome(Gate.compare(drifted, with: base, threshold: nil), lenient: false) == .pass)
    }

    @Test("times are calibrated: a machine twice as slow everywhere is no regression")
    func calibrated() throws {
        let base = Baseline.from(try results { _ in })
        let slowMachine = try results { object in
            for (i, solver, phase) in [(0, "cassowary", "load"), (0, "cassowary", "solve"), (0, "glpk", "load"), (0, "glpk", "solve"),
                                       (1, "cassowary", "load"), (1, "cassowary", "solve"), (2, "cassowary", "load"), (2, "cassowary", "solve")] {
                scaled(&object, caseIndex: i, solver: solver, phase: phase, by: 2)
            }
            object["calibration_s"] = 0.002
        }
        #expect(Gate.outcome(Gate.compare(slowMachine, with: base, threshold: nil), lenient: false) == .pass)
    }

    @Test("verdicts and counters gate exactly; new cases need --lenient")
    func exact() throws {
        let base = Baseline.from(try results { _ in })
        let broken = try results { object in
            var cases = object["cases"] as? [[String: Any]] ?? []
            var rs = cases[0]["results"] as? [[String: Any]] ?? []
            rs[0]["verdict"] = "fail"
            cases[0]["results"] = rs
            object["cases"] = cases
        }
        let findings = Gate.compare(broken, with: base, threshold: nil)
        #expect(findings.first?.kind == .regression && findings.first?.metric == "verdict")
        let morePivots = try results { object in
            var cases = object["cases"] as? [[String: Any]] ?? []
            cases[0]["counters"] = ["cassowary": ["pivots": 4], "glpk": ["simplex-iterations": 7]]
            object["cases"] = cases
        }
        #expect(Gate.outcome(Gate.compare(morePivots, with: base, threshold: nil), lenient: false) == .regression)
        var trimmed = base
        trimmed.cases["family/alternating-grid-r100"] = nil
        let withNew = Gate.compare(try results { _ in }, with: trimmed, threshold: nil)
        #expect(Gate.outcome(withNew, lenient: false) == .regression)
        #expect(Gate.outcome(withNew, lenient: true) == .pass)
    }

    @Test("allocation counts gate within 2% or 4 allocations: one more per constraint is a regression")
    func allocations() throws {
        func withLoadAllocations(_ count: Double) throws -> ResultsFile {
            try results { object in
                var cases = object["cases"] as? [[String: Any]] ?? []
                cases[0]["counters"] = ["cassowary": ["allocations/load": count, "pivots": 3], "glpk": ["simplex-iterations": 7]]
                object["cases"] = cases
            }
        }
        let base = Baseline.from(try withLoadAllocations(400))
        #expect(Gate.outcome(Gate.compare(try withLoadAllocations(404), with: base, threshold: nil), lenient: false) == .pass)
        let findings = Gate.compare(try withLoadAllocations(403), with: base, threshold: nil)
        #expect(findings.contains { $0.kind == .noise && $0.metric == "allocations/load" })
        let worse = Gate.compare(try withLoadAllocations(500), with: base, threshold: nil)
        #expect(Gate.outcome(worse, lenient: false) == .regression)
        #expect(worse.contains { $0.kind == .regression && $0.metric == "allocations/load" && $0.subject.hasSuffix(" cassowary") })
        #expect(Gate.outcome(Gate.compare(try withLoadAllocations(300), with: base, threshold: nil), lenient: false) == .improvementsOnly)
        // A baseline's own tolerance wins over the default.
        var strict = base
        strict.thresholds.allocations = 0
        #expect(Gate.outcome(Gate.compare(try withLoadAllocations(410), with: strict, threshold: nil), lenient: false) == .regression)
        // Small counts: a few allocations are noise whatever the percentage.
        let small = Baseline.from(try withLoadAllocations(100))
        #expect(Gate.outcome(Gate.compare(try withLoadAllocations(104), with: small, threshold: nil), lenient: false) == .pass)
        #expect(Gate.outcome(Gate.compare(try withLoadAllocations(105), with: small, threshold: nil), lenient: false) == .regression)
    }

    @Test("per-case thresholds from the baseline; several runs make one baseline")
    func perCase() throws {
        let runs = [try results { scaled(&$0, caseIndex: 0, solver: "cassowary", phase: "load", by: 3) }, try results { _ in },
                    try results { _ in }]
        let combined = try #require(Baseline.from(runs))
        #expect(Gate.outcome(Gate.compare(try results { _ in }, with: combined, threshold: nil), lenient: false) == .pass)
        var base = Baseline.from(try results { _ in })
        base.thresholds.cases = ["seed/*": .init(time: 1.5, counter: nil)]
        let slower = try results { scaled(&$0, caseIndex: 0, solver: "cassowary", phase: "load", by: 2) }
        #expect(Gate.outcome(Gate.compare(slower, with: base, threshold: nil), lenient: false) == .pass)
    }
}
