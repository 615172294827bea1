import BenchReports
import Foundation
import Testing

@Suite("Acknowledged regressions")
struct AcknowledgmentsTests {
    let report = GateReport(findings: [
        GateFinding(kind: .regression, metric: "allocations/load", subject: "seed/grid cassowary", baseline: "278", current: "434", change: 0.56),
        GateFinding(kind: .regression, metric: "time/load", subject: "seed/grid glpk", baseline: "1", current: "2", change: 1.0),
        GateFinding(kind: .noise, metric: "pivots", subject: "seed/grid cassowary", baseline: "2", current: "2", change: 0),
    ], confidence: 0.99, baselineRuns: 6)

    let file = Acknowledgments(acknowledged: [
        .init(base: "2778d22", metric: "allocations/*", subject: "* cassowary", reason: "the DAG of external rows"),
    ])

    @Test("an entry for the gate's base turns the regressions it covers into acknowledged ones, with the reason")
    func applies() {
        let out = file.applied(to: report, base: "2778d221d028aa")
        #expect(out.findings.map(\.kind) == [.regression, .acknowledged, .noise])
        #expect(out.findings[1].subject.contains("acknowledged: the DAG of external rows"))
        // glpk's regression is not covered: the gate still fails.
        #expect(out.outcome(lenient: true) == .regression)
        let onlyCassowary = GateReport(findings: [report.findings[0]], confidence: 0.99, baselineRuns: 6)
        #expect(file.applied(to: onlyCassowary, base: "2778d221d028").outcome(lenient: true) == .pass)
    }

    @Test("against another base the entry does not apply: nothing is accepted twice")
    func otherBase() {
        let out = file.applied(to: report, base: "69137cf0000")
        #expect(out.findings.map(\.kind) == report.findings.map(\.kind))
        #expect(out.outcome(lenient: true) == .regression)
    }

    @Test("a missing file is none; an entry without a reason or with a short base is refused")
    func reading() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Acknowledgments.read(dir.appendingPathComponent("none.json").path).acknowledged.isEmpty)
        let bad = dir.appendingPathComponent("bad.json")
        try #"{"acknowledged": [{"base": "27", "metric": "*", "subject": "*", "reason": "x"}]}"#.write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: Acknowledgments.Invalid.self) { try Acknowledgments.read(bad.path) }
        let empty = dir.appendingPathComponent("empty.json")
        try #"{"acknowledged": [{"base": "2778d22", "metric": "*", "subject": "*", "reason": " "}]}"#.write(to: empty, atomically: true, encoding: .utf8)
        #expect(throws: Acknowledgments.Invalid.self) { try Acknowledgments.read(empty.path) }
        let good = dir.appendingPathComponent("good.json")
        try JSONEncoder().encode(file).write(to: good)
        #expect(try Acknowledgments.read(good.path) == file)
    }
}
