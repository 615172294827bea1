import BenchMetrics
import BenchReports
import BenchSchema
import BenchStatistics
import Foundation
import SeededRandom
import Testing

/// Synthetic runs from a known noise model, so that the gate's rates can be
/// checked against its design: per sample a within-run log-normal noise, per
/// run and timing a between-run random effect, per run and solver a common
/// mode (the three components measured on this machine kind; docs/design/gates.md).
struct SyntheticRuns {
    var cases = 20
    var samples = 40
    var within = 0.05
    var between = 0.05
    var common = 0.02
    var solvers = ["cassowary", "glpk"]
    var phases = ["load", "solve", "resize"]
    var generator: SplitMix

    init(seed: UInt64) { generator = SplitMix(seed: seed) }

    mutating func normal() -> Double {
        let u = (Double(generator.next() >> 11) + 0.5) / Double(1 << 53)
        let v = (Double(generator.next() >> 11) + 0.5) / Double(1 << 53)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// One run: `slowdown(case, solver, phase)` multiplies the true time;
    /// `machine` multiplies every time and the yardstick's (a slower machine).
    mutating func run(verdict: String = "pass", counters: [String: [String: Double]] = [:], machine: Double = 1,
                      slowdown: (Int, String, String) -> Double = { _, _, _ in 1 }) throws -> ResultsDocument {
        var commonMode: [String: Double] = [:]
        for s in solvers { commonMode[s] = common * normal() }
        var caseObjects: [[String: Any]] = []
        for c in 0..<cases {
            var timings: [[String: Any]] = []
            for s in solvers {
                for p in phases {
                    // True times from 10 µs to about 1 ms, fixed per case, solver and phase.
                    let truth = 1e-5 * Double(1 + (c * 7 + s.count * 3 + p.count) % 97) * slowdown(c, s, p) * machine
                    let effect = between * normal() + (commonMode[s] ?? 0)
                    let values = (0..<samples).map { _ in truth * exp(effect + within * normal()) }
                    let summary = try #require(TimingSummary(values))
                    timings.append(["solver": s, "phase": p, "min": summary.minimum, "median": summary.median,
                                    "max": summary.maximum, "n": values.count, "iterations": 1, "samples": values])
                }
            }
            let results: [[String: Any]] = solvers.map { s in
                ["variant": "default", "solver": s, "verdict": verdict, "reasons": [String](), "levels": [[String: Any]](),
                 "conflict": [String](), "frames": [String: Any]()]
            }
            caseObjects.append(["name": "family/case-\(c)", "source": "generated", "views": 3, "constraints": 12,
                                "variants": ["default"], "results": results, "timings": timings, "counters": counters])
        }
        // The yardstick: steadier than any solver (measured: ±3.5% between runs).
        let yardstickEffect = 0.01 * normal()
        let yardstick = (0..<samples).map { _ in 40e-6 * machine * exp(yardstickEffect + 0.02 * normal()) }
        let object: [String: Any] = [
            "yardstick": ["median": try #require(TimingSummary(yardstick)).median, "n": samples, "samples": yardstick],
            "schema": "layout-bench/results", "version": 1, "started": "2026-11-22T00:00:00Z", "finished": "2026-11-22T00:00:01Z",
            "machine": ["cpu": "synthetic", "cores": 2, "memory_bytes": 1e9, "os": "Linux", "swift": "6.3", "glpk": "5.0"],
            "solvers": solvers.map { ["name": $0, "kind": "built-in", "reference": $0 == "glpk"] },
            "problems": [[String: Any]](), "cases": caseObjects,
        ]
        return try ResultsDocument.decode(JSONSerialization.data(withJSONObject: object), name: "synthetic")
    }

    mutating func baseline(runs: Int, thresholds: Baseline.Thresholds = Baseline.Thresholds()) throws -> Baseline {
        try #require(Baseline.from((0..<runs).map { _ in try run() }, thresholds: thresholds))
    }
}

@Suite("Gates")
struct GateTests {
    @Test("unchanged code: no false alarm in 100 runs against a 5-run baseline (about 12,000 comparisons)")
    func falsePositives() throws {
        var model = SyntheticRuns(seed: 1)
        let base = try model.baseline(runs: 5)
        #expect(base.runs == 5 && base.cases.count == 20)
        var alarms = 0, improvements = 0, compared = 0
        for _ in 0..<100 {
            let report = Gate.compare(try model.run(), with: base)
            compared += report.findings.filter { $0.interval != nil }.count
            if report.outcome(lenient: false) == .regression {
                alarms += 1
                Issue.record("\(report.findings.filter { $0.kind != .noise }.map { "\($0.kind) \($0.metric) \($0.subject) \($0.change ?? 0) \($0.interval.map { "\($0.low)...\($0.high)" } ?? "")" })")
            }
            if report.outcome(lenient: false) == .improvementsOnly { improvements += 1 }
        }
        #expect(compared == 100 * (20 * 6 + 6))
        #expect(alarms == 0)
        #expect(improvements == 0)
    }

    @Test("unchanged code against a baseline of one run (the prior between-run variation): no false alarm")
    func falsePositivesOneRun() throws {
        var model = SyntheticRuns(seed: 2)
        var alarms = 0
        for _ in 0..<40 {
            let base = try model.baseline(runs: 1)
            if Gate.compare(try model.run(), with: base).outcome(lenient: false) == .regression { alarms += 1 }
        }
        #expect(alarms == 0)
    }

    @Test("a solver 20% slower in one phase of every case: detected in every run, named, as an aggregate")
    func detection() throws {
        var model = SyntheticRuns(seed: 3)
        let base = try model.baseline(runs: 5)
        var detected = 0
        for _ in 0..<50 {
            let slow = try model.run { _, solver, phase in solver == "cassowary" && phase == "load" ? 1.2 : 1 }
            let report = Gate.compare(slow, with: base)
            let regressions = report.findings.filter { $0.kind == .regression }
            if report.outcome(lenient: false) == .regression {
                detected += 1
                // Only the slowed solver and phase are blamed.
                let blamed = { (f: GateFinding) in
                    (f.subject.hasSuffix(" cassowary") || f.subject.hasPrefix("cassowary (")) && f.metric.hasPrefix("time/load")
                }
                #expect(regressions.allSatisfy(blamed), "\(regressions.filter { !blamed($0) }.map { "\($0.metric) \($0.subject)" })")
                #expect(regressions.contains { $0.metric == "time/load, all cases" && $0.subject == "cassowary (20 cases)" })
            }
        }
        #expect(detected == 50)
    }

    @Test("one case 1.6x slower: detected per case; 10% is within the noise")
    func oneCase() throws {
        var model = SyntheticRuns(seed: 4)
        let base = try model.baseline(runs: 5)
        var detected = 0, quiet = 0
        for _ in 0..<30 {
            let slow = try model.run { c, solver, phase in c == 7 && solver == "cassowary" && phase == "solve" ? 1.6 : 1 }
            let report = Gate.compare(slow, with: base)
            if report.findings.contains(where: { $0.kind == .regression && $0.subject == "family/case-7 cassowary" && $0.metric == "time/solve" }) {
                detected += 1
            }
            let slight = try model.run { c, solver, phase in c == 7 && solver == "cassowary" && phase == "solve" ? 1.1 : 1 }
            let slightReport = Gate.compare(slight, with: base)
            if slightReport.outcome(lenient: false) == .pass { quiet += 1 } else {
                Issue.record("\(slightReport.findings.filter { $0.kind != .noise }.map { "\($0.kind) \($0.metric) \($0.subject) \($0.change ?? 0)" })")
            }
        }
        #expect(detected >= 29)
        #expect(quiet == 30)
    }

    @Test("a slower machine (every solver 40% slower) is drift, divided out: no regression; 1.6x still found on it")
    func drift() throws {
        var model = SyntheticRuns(seed: 6)
        let base = try model.baseline(runs: 5)
        let slowMachine = try model.run(machine: 1.4)
        let report = Gate.compare(slowMachine, with: base)
        #expect(report.driftCorrected)
        #expect(abs((report.drift?.estimate ?? 0) - 0.4) < 0.05)
        #expect(report.outcome(lenient: false) == .pass, "\(report.findings.filter { $0.kind != .noise }.map { "\($0.kind) \($0.metric) \($0.subject) \($0.change ?? 0)" }) drift \(String(describing: report.drift))")
        // On a machine 40% slower the correction itself is uncertain (Gate.driftUncertainty):
        // a 20% regression is not decidable there, a 1.6x one still is.
        let both = try model.run(machine: 1.4) { _, solver, phase in solver == "cassowary" && phase == "load" ? 1.6 : 1 }
        let found = Gate.compare(both, with: base)
        #expect(found.findings.contains { $0.kind == .regression && $0.subject == "cassowary (20 cases)" && $0.metric == "time/load, all cases" })
        #expect(!found.findings.contains { $0.kind == .regression && $0.subject.hasPrefix("glpk") })
    }

    @Test("the values shown are the values gated: change = now / baseline - 1, inside its interval")
    func coherent() throws {
        var model = SyntheticRuns(seed: 7)
        let base = try model.baseline(runs: 3)
        let report = Gate.compare(try model.run { _, solver, _ in solver == "cassowary" ? 2 : 1 }, with: base)
        for f in report.findings where f.interval != nil && !f.metric.hasSuffix("all cases") {
            let parts = f.subject.split(separator: " ")
            let caseName = String(parts[0]), solver = String(parts[1])
            let phase = try #require(Phase(rawValue: String(f.metric.dropFirst("time/".count))))
            let old = try #require(base.cases[caseName]?.times[SolverPhase(solver, phase)]?.median)
            let change = try #require(f.change)
            let interval = try #require(f.interval)
            #expect(interval.low <= change && change <= interval.high)
            // Shown at the baseline's machine speed (the yardstick's), so the
            // change is exactly now / baseline - 1 of the two numbers shown.
            #expect(f.baseline == formatSeconds(old))
            #expect(f.current == formatSeconds(old * (1 + change)))
        }
        #expect(report.findings.filter { $0.kind == .regression }.count >= 60)
    }

    @Test("verdicts and counters gate exactly; new cases need --lenient; --only-common scopes the gate")
    func exact() throws {
        var model = SyntheticRuns(seed: 8)
        model.cases = 4
        let base = try model.baseline(runs: 3)
        let broken = Gate.compare(try model.run(verdict: "fail"), with: base)
        #expect(broken.outcome(lenient: false) == .regression)
        #expect(broken.findings.first?.metric == "verdict")
        var withCounters = try #require(Baseline.from([try model.run(counters: ["cassowary": ["pivots": 10]])]))
        #expect(Gate.compare(try model.run(counters: ["cassowary": ["pivots": 11]]), with: withCounters)
            .findings.contains { $0.kind == .regression && $0.metric == "pivots" })
        // A case the baseline lacks: a regression unless lenient or only-common.
        withCounters.cases["family/case-3"] = nil
        let run = try model.run(counters: ["cassowary": ["pivots": 10]])
        #expect(Gate.compare(run, with: withCounters).outcome(lenient: false) == .regression)
        #expect(Gate.compare(run, with: withCounters).outcome(lenient: true) == .pass)
        let scoped = Gate.compare(run, with: withCounters, onlyCommon: true)
        #expect(scoped.outcome(lenient: true) == .pass)
        #expect(!scoped.findings.contains { $0.kind == .new })
        // A run on a subset: the missing cases are listed, not regressions.
        var subset = base
        subset.cases["family/case-9"] = subset.cases["family/case-0"]
        let missing = Gate.compare(try model.run(), with: subset)
        #expect(missing.findings.contains { $0.kind == .missing && $0.subject == "family/case-9" })
        #expect(missing.outcome(lenient: false) == .pass, "\(missing.findings.filter { $0.kind == .regression }.map { "\($0.metric) \($0.subject) \($0.change ?? 0)" })")
    }

    @Test("allocation counts gate within 2% or 4 allocations: one more per constraint is a regression")
    func allocations() throws {
        var model = SyntheticRuns(seed: 9)
        model.cases = 2
        func run(_ count: Double) throws -> ResultsDocument { try model.run(counters: ["cassowary": ["allocations/load": count]]) }
        let base = try #require(Baseline.from([try run(400)]))
        #expect(Gate.compare(try run(404), with: base).outcome(lenient: false) == .pass)
        #expect(Gate.compare(try run(403), with: base).findings.contains { $0.kind == .noise && $0.metric == "allocations/load" })
        let worse = Gate.compare(try run(500), with: base)
        #expect(worse.outcome(lenient: false) == .regression)
        #expect(worse.findings.contains { $0.kind == .regression && $0.metric == "allocations/load" && $0.subject.hasSuffix(" cassowary") })
        #expect(Gate.compare(try run(300), with: base).outcome(lenient: false) == .improvementsOnly)
        var strict = base
        strict.thresholds.allocations = 0
        #expect(Gate.compare(try run(410), with: strict).outcome(lenient: false) == .regression)
        let small = try #require(Baseline.from([try run(100)]))
        #expect(Gate.compare(try run(104), with: small).outcome(lenient: false) == .pass)
        #expect(Gate.compare(try run(105), with: small).outcome(lenient: false) == .regression)
    }

    @Test("thresholds: per case by glob, per solver; the reference gets its own at save")
    func thresholds() throws {
        var model = SyntheticRuns(seed: 10)
        var base = try model.baseline(runs: 3)
        #expect(base.thresholds.solvers?["glpk"]?.time == Baseline.Thresholds.reference.time)
        let slower = try model.run { c, solver, phase in c == 2 && solver == "cassowary" && phase == "load" ? 2 : 1 }
        #expect(Gate.compare(slower, with: base).outcome(lenient: false) == .regression)
        // A pattern that takes a backtracking matcher exponential time.
        let pathological = String(repeating: "*a", count: 30) + "*z"
        base.thresholds.cases = ["family/case-2": .init(time: 1.5, counter: nil), pathological: .init(time: 0, counter: nil)]
        #expect(Gate.compare(slower, with: base).outcome(lenient: false) == .pass)
        // The reference's per-case threshold (2x): 1.6x is not flagged per case.
        let reference = try model.run { c, solver, phase in c == 2 && solver == "glpk" && phase == "load" ? 1.6 : 1 }
        #expect(!Gate.compare(reference, with: base).findings.contains { $0.kind == .regression && $0.subject.hasSuffix(" glpk") })
    }

    @Test("baselines: versioned, refused with the command that re-saves them")
    func files() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var model = SyntheticRuns(seed: 12)
        model.cases = 2
        let base = try model.baseline(runs: 2)
        let path = directory.appendingPathComponent("b.json").path
        try base.encoded().write(to: URL(fileURLWithPath: path))
        #expect(try Baseline.read(path).runs == 2)
        try Data(#"{"schema": "layout-bench/baseline", "version": 1, "cases": {}}"#.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Baseline.read(path)
            Issue.record("a version 1 baseline was accepted")
        } catch {
            #expect(!error.missing && error.description.contains("baseline save"))
        }
        do {
            _ = try Baseline.read(directory.appendingPathComponent("none.json").path)
            Issue.record("a missing baseline was read")
        } catch {
            #expect(error.missing)
        }
    }
}
