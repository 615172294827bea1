import BenchHistory
import BenchSchema
import BenchStatistics
import Foundation
import SeededRandom
import Testing

/// A results document with `cases` cases whose cassowary load takes `seconds(case)`.
func results(started: String, commit: String, cases: Int = 5, verdict: String = "pass", seconds: (Int) -> Double) throws -> ResultsDocument {
    let caseObjects: [[String: Any]] = (0..<cases).map { c in
        let t = seconds(c)
        return ["name": "family/case-\(c)", "source": "generated", "views": 3, "constraints": 12, "variants": ["default"],
                "results": [["variant": "default", "solver": "cassowary", "verdict": verdict, "reasons": [String](),
                             "levels": [[String: Any]](), "conflict": [String](), "frames": [String: Any]()]],
                "timings": [["solver": "cassowary", "phase": "load", "min": t * 0.9, "median": t, "median_ci": [t * 0.97, t * 1.03],
                             "max": t * 1.2, "n": 20]],
                "counters": ["cassowary": ["allocations/load": 100.0 + Double(c)]]]
    }
    let object: [String: Any] = [
        "schema": "layout-bench/results", "version": 1, "started": started, "finished": started,
        "machine": ["cpu": "synthetic", "cores": 2, "memory_bytes": 1e9, "os": "Linux", "swift": "6.3", "glpk": "5.0", "commit": commit],
        "solvers": [["name": "cassowary", "kind": "built-in", "reference": false]], "problems": [[String: Any]](), "cases": caseObjects,
    ]
    return try ResultsDocument.decode(JSONSerialization.data(withJSONObject: object), name: "synthetic")
}

func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)").appendingPathComponent(name).path
}

@Suite("History")
struct HistoryTests {
    @Test("a run is recorded once, in one transaction, and read back in commit order")
    func addAndRead() throws {
        let path = temporaryPath("h.sqlite")
        let store = try HistoryStore(path: path)
        let a = try results(started: "2026-11-24T01:00:00Z", commit: "aaa") { Double($0 + 1) * 1e-5 }
        let b = try results(started: "2026-11-24T00:00:00Z", commit: "bbb") { Double($0 + 1) * 1e-5 }
        #expect(try store.add(a, source: "a.json", commitTime: "2026-11-20T00:00:00Z") != nil)
        #expect(try store.add(a, source: "a.json", commitTime: "2026-11-20T00:00:00Z") == nil)  // recorded before
        #expect(try store.add(b, source: "b.json", commitTime: "2026-11-19T00:00:00Z") != nil)
        let runs = try store.runs()
        #expect(runs.map(\.commit) == ["bbb", "aaa"])
        #expect(try store.timings(solver: "cassowary", phase: "load").count == 10)
        #expect(try store.passRates().allSatisfy { $0.passing == 5 && $0.total == 5 })
        #expect(try store.counterTotals("allocations/load").map(\.total) == [510, 510])
        // Reopened by a second store (another process would do the same): the same rows.
        #expect(try HistoryStore(path: path).runs() == runs)
    }

    @Test("a file that is not ours, newer, or not a database: a clear error and the file untouched")
    func refusals() throws {
        let text = temporaryPath("notes.sqlite")
        try FileManager.default.createDirectory(atPath: (text as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("hello, not a database\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect { try HistoryStore(path: text) } throws: { "\($0)".contains("not an SQLite database") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: text)) == Data("hello, not a database\n".utf8))

        // Someone else's SQLite file (made with the sqlite3 tool if there is one, else skip that half).
        let foreign = temporaryPath("foreign.sqlite")
        try FileManager.default.createDirectory(atPath: (foreign as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            p.arguments = [foreign, "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('ada');"]
            try p.run()
            p.waitUntilExit()
            let before = try Data(contentsOf: URL(fileURLWithPath: foreign))
            #expect { try HistoryStore(path: foreign) } throws: { "\($0)".contains("not a layout-bench history") }
            #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == before)
        }

        // A history of a newer schema.
        let newer = temporaryPath("newer.sqlite")
        _ = try HistoryStore(path: newer)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            p.arguments = [newer, "UPDATE layout_bench_history SET version = 99;"]
            try p.run()
            p.waitUntilExit()
            #expect { try HistoryStore(path: newer) } throws: { "\($0)".contains("schema version 99, newer") }
        }
    }

    @Test("rows edited by hand (NULL, text where a number goes) are left out, never a crash")
    func editedRows() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { return }
        let path = temporaryPath("edited.sqlite")
        let store = try HistoryStore(path: path)
        try store.add(try results(started: "2026-11-24T01:00:00Z", commit: "aaa") { Double($0 + 1) * 1e-5 }, source: "a", commitTime: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [path, "UPDATE run SET commit_time = NULL; UPDATE timing SET median_s = 'fast' WHERE case_name = 'family/case-0';"]
        try p.run()
        p.waitUntilExit()
        let reopened = try HistoryStore(path: path)
        let runs = try reopened.runs()
        #expect(runs.count == 1 && runs.first?.commitTime == "2026-11-24T01:00:00Z")
        #expect(try reopened.timings().count == 4)
    }

    @Test("change points: a 20% step in noisy data is found where it is; a flat series has none")
    func changePoints() {
        var rng = SplitMix(seed: 7)
        func noise() -> Double { (Double(rng.next() % 1000) / 1000 - 0.5) * 0.04 }
        let stepped = (0..<30).map { i in (i < 12 ? 0.0 : Foundation.log(1.2)) + noise() }
        let steps = ChangePoints.detect(stepped)
        #expect(steps.map(\.index) == [12])
        #expect(abs((steps.first?.after ?? 0) - (steps.first?.before ?? 0) - Foundation.log(1.2)) < 0.03)
        #expect(ChangePoints.detect((0..<30).map { _ in noise() }).isEmpty)
        #expect(ChangePoints.detect([]).isEmpty && ChangePoints.detect([1, 2]).isEmpty)
    }

    @Test("the dashboard: a step injected into a synthetic history is marked between the right commits; every run is a point")
    func dashboard() throws {
        let store = try HistoryStore(path: temporaryPath("d.sqlite"))
        var rng = SplitMix(seed: 9)
        for i in 0..<24 {
            let factor = i >= 15 ? 1.25 : 1.0
            let doc = try results(started: String(format: "2026-11-24T00:%02d:00Z", i), commit: String(format: "c%02d", i)) { c in
                Double(c + 1) * 1e-5 * factor * (1 + (Double(rng.next() % 1000) / 1000 - 0.5) * 0.03)
            }
            try store.add(doc, source: "r\(i).json", commitTime: String(format: "2026-11-%02dT00:00:00Z", i + 1))
        }
        let runs = try store.runs()
        let series = HistorySeries.make(solver: "cassowary", phase: "load", runs: runs, timings: try store.timings())
        #expect(series.points.count == 24 && series.cases == 5)
        #expect(series.steps.count == 1)
        #expect(series.steps.first?.before.commit == "c14" && series.steps.first?.after.commit == "c15")
        #expect(abs((series.steps.first?.change ?? 0) - 0.25) < 0.03)
        let html = HistoryReport.render(runs: runs, series: [series], passRates: ["cassowary": runs.indices.map { ($0, 1.0) }],
                                        allocations: ["cassowary": runs.indices.map { ($0, 510.0) }])
        #expect(html.components(separatedBy: "class=\"change-point\"").count == 2)
        #expect(html.contains("c14") && html.contains("c15"))
        #expect(html.components(separatedBy: "<circle class=\"point\"").count - 1 == 24 + 24 + 24)
    }
}
