import BenchReports
import BenchSchema
import Foundation
import Testing

/// The results format, pinned: what `run` writes, the reports, gate and
/// `merge` read, through the one Codable type.
@Suite("Results document")
struct ResultsDocumentTests {
    /// A small document with every optional part present.
    static func small() -> ResultsDocument {
        let result = ResultsDocument.Result(variant: "default", solver: "cassowary", verdict: .pass, reasons: [], status: "solved",
                                            levels: [ResultsDocument.Level(priority: 750, error: 0.5)], ambiguous: ["b"],
                                            conflict: [], frames: ["a": [0, 0, 10, 20.5]])
        let timing = ResultsDocument.Timing(solver: "cassowary", phase: .addRemove, min: 1e-6, median: 2e-6, median_ci: [1.5e-6, 2.5e-6],
                                            p90: nil, max: 3e-6, n: 3, iterations: 10, samples: [1e-6, 2e-6, 3e-6])
        let c = ResultsDocument.Case(name: "seed/x", source: "seed/x.layout", views: 2, constraints: 4, variants: ["default"],
                                     results: [result], timings: [timing],
                                     counters: ["cassowary": [.pivots: 3, .allocationsAddRemove: 12]],
                                     untimed: ["kiwi": [.resize]],
                                     content: ["a": ResultsDocument.Content(intrinsic: [40, nil], baselines: [12, 12])])
        let hello = ResultsDocument.Solver.Hello(name: "kiwi", version: "1.5", protocol: 1, semantics: "weighted", incremental: true,
                                                 edits: true, max_rows: nil, ambiguity: false)
        return ResultsDocument(
            started: "2026-11-23T00:00:00Z", finished: "2026-11-23T00:00:01Z",
            machine: ResultsDocument.Machine(cpu: "CPU", cores: 2, memory_bytes: 1024, os: "Linux", swift: "6.3", glpk: "5.0", commit: nil),
            settings: ResultsDocument.Settings(repetitions: 5, scale: "small", corpus_cases: ["seed/x"]),
            solvers: [ResultsDocument.Solver(name: "cassowary", kind: "built-in", reference: true),
                      ResultsDocument.Solver(name: "kiwi", kind: "external", reference: false, command: ["python3", "kiwi.py"],
                                             working_directory: nil, protocol: 1, hello: hello)],
            unavailable_solvers: [], peak_rss_bytes: 4096, yardstick: ResultsDocument.Yardstick(median: 0.01, n: 1, samples: [0.01]),
            problems: [ResultsDocument.Problem(case: "seed/bad", message: "1:1: error")], cases: [c])
    }

    @Test("a document round-trips, byte for byte on the second encoding")
    func roundTrip() throws {
        for document in [Self.small(), try ReportTests.fixture()] {
            let data = try document.encoded()
            let back = try ResultsDocument.decode(data, name: "x")
            #expect(back == document)
            #expect(try back.encoded() == data)
        }
    }

    @Test("the format, pinned: keys sorted, counters and verdicts by name, nil fields absent")
    func pinned() throws {
        let text = String(decoding: try Self.small().encoded(), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == ["cases", "finished", "machine", "peak_rss_bytes", "problems", "schema", "settings",
                                         "solvers", "started", "summary", "unavailable_solvers", "version", "yardstick"])
        #expect(object["schema"] as? String == "layout-bench/results" && object["version"] as? Int == 1)
        let c = try #require((object["cases"] as? [[String: Any]])?.first)
        #expect(c.keys.sorted() == ["constraints", "content", "counters", "name", "results", "source", "timings", "untimed",
                                    "variants", "views"])
        #expect((c["counters"] as? [String: [String: Double]])?["cassowary"] == ["pivots": 3, "allocations/add+remove": 12])
        let result = try #require((c["results"] as? [[String: Any]])?.first)
        #expect(result.keys.sorted() == ["ambiguous", "conflict", "frames", "levels", "reasons", "solver", "status", "variant",
                                         "verdict"])
        let timing = try #require((c["timings"] as? [[String: Any]])?.first)
        #expect(timing["phase"] as? String == "add+remove" && timing["p90"] == nil)
        // Every verdict counted for every solver, by its name.
        let summary = try #require(object["summary"] as? [String: [String: Int]])
        #expect(summary["cassowary"] == ["pass": 1, "fail": 0, "unsupported": 0, "error": 0, "weighted-divergence": 0, "metamorphic": 0])
        #expect(summary["kiwi"]?.values.allSatisfy { $0 == 0 } == true)
        // Slashes as they are, keys sorted, one line.
        #expect(text.contains(#""name":"seed/x""#) && text.filter { $0 == "\n" }.count == 1)
        #expect(text.range(of: #""cases""#)?.lowerBound ?? text.endIndex < text.range(of: #""finished""#)?.lowerBound ?? text.startIndex)
    }

    @Test("other schemas and versions are refused with a clear error; a bad field is located")
    func refusals() throws {
        var newer = try JSONSerialization.jsonObject(with: try Self.small().encoded()) as? [String: Any] ?? [:]
        newer["version"] = 2
        let future = try JSONSerialization.data(withJSONObject: newer)
        #expect(throws: ResultsDocument.ReadError(description: "f.json: results version 2; this layout-bench reads version 1")) {
            try ResultsDocument.decode(future, name: "f.json")
        }
        let baseline = Data(#"{"schema": "layout-bench/baseline", "version": 2}"#.utf8)
        #expect(throws: ResultsDocument.ReadError(description: "b.json: not a layout-bench results document (schema 'layout-bench/baseline'; expected 'layout-bench/results')")) {
            try ResultsDocument.decode(baseline, name: "b.json")
        }
        let text = String(decoding: try Self.small().encoded(), as: UTF8.self).replacingOccurrences(of: #""verdict":"pass""#,
                                                                                                    with: #""verdict":"passed""#)
        do {
            _ = try ResultsDocument.decode(Data(text.utf8), name: "v.json")
            Issue.record("an unknown verdict was accepted")
        } catch {
            #expect(error.description.hasPrefix("v.json: not a valid layout-bench results document: cases[0].results[0].verdict:"),
                    "\(error)")
        }
        #expect(throws: ResultsDocument.ReadError.self) { try ResultsDocument.decode(Data("[1]".utf8), name: "a.json") }
    }

    @Test("the committed CI baseline decodes to typed keys and encodes back byte for byte")
    func committedBaseline() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Reports/baselines/ci.json").standardized.path
        let baseline = try Baseline.read(path)
        let stored = try #require(FileManager.default.contents(atPath: path))
        // The file ends with the newline `baseline save` writes.
        #expect(try baseline.encoded() + Data("\n".utf8) == stored || baseline.encoded() == stored)
        let entry = try #require(baseline.cases.values.first)
        #expect(entry.times.keys.contains(SolverPhase("cassowary", .load)))
        #expect(entry.verdicts.keys.contains(VariantSolver("default", "glpk")))
        #expect(SolverPhase("my/solver/add+remove") == SolverPhase("my/solver", .addRemove))
        #expect(SolverPhase("cassowary/nonsense") == nil && VariantSolver("noslash") == nil)
    }

    @Test("non-finite numbers are written as strings and read back")
    func nonFinite() throws {
        var document = Self.small()
        document.cases[0].results[0].levels = [ResultsDocument.Level(priority: 1, error: .infinity)]
        document.cases[0].timings[0].max = .nan
        let back = try ResultsDocument.decode(try document.encoded(), name: "x")
        #expect(back.cases[0].results[0].levels[0].error == .infinity)
        #expect(back.cases[0].timings[0].max.isNaN)
    }
}
