import BenchSchema
import BenchStatistics
import ExternalSolvers
import Foundation
import LayoutModel
import LayoutSolving

/// The results document of a run: one JSON file, schema versioned.
///
/// Schema `layout-bench/results`, version 1 (documented in the README):
/// `{"schema", "version", "started", "finished", "machine": {...}, "settings": {...}, "peak_rss_bytes", "yardstick": {"median", "n", "samples"},
/// "solvers": [{"name", "kind", "reference", external solvers also "command", "working_directory", "protocol",
///   "hello": {"name", "version", "protocol", "semantics", "incremental", "edits", "max_rows"}}],
/// "unavailable_solvers": [{"name", "command", "reason"}], "problems": [{"case", "message"}],
/// "cases": [{"name", "source", "views", "constraints", "variants": [...],
///   "results": [{"variant", "solver", "verdict", "reasons", "status", "levels", "ambiguous", "conflict", "frames"}],
///   "content" (only with intrinsic sizes or baselines): {VIEW: {"intrinsic": [W | null, H | null], "baselines": [FIRST, LAST]}},
///   "timings": [{"solver", "phase", "min", "median", "median_ci", "p90", "max", "n", "iterations", "samples"}],
///   "counters": {solver: {name: value}}, "untimed" (only if any): {solver: [phase]}}],
/// "summary": {solver: {verdict: count}}}`. Times are seconds.
public struct RunResults: Sendable {
    public static let schema = "layout-bench/results"
    public static let version = 1

    public var started: Date
    public var finished: Date
    public var machine: MachineInfo
    public var settings: [(String, JSONValue)]
    public var solvers: [SolverSpec]
    public var problems: [CaseProblem]
    public var cases: [CaseResult]
    /// Seconds of one ``Runner/yardstick()`` call, one per sample round.
    public var yardstick: [Double]
    /// What each external solver said in `hello` (its provenance).
    public var hellos: [String: SolverHello] = [:]
    /// External solvers left out because they could not start, and why.
    public var unavailable: [(spec: SolverSpec, reason: String)] = []
    /// The solver the others were judged against (``RunSettings/reference``).
    public var reference = "glpk"

    public init(started: Date, finished: Date, machine: MachineInfo, settings: [(String, JSONValue)], solvers: [SolverSpec],
                problems: [CaseProblem], cases: [CaseResult], yardstick: [Double] = []) {
        self.yardstick = yardstick
        self.started = started
        self.finished = finished
        self.machine = machine
        self.settings = settings
        self.solvers = solvers
        self.problems = problems
        self.cases = cases
    }

    /// Verdict counts per solver, in solver order.
    public var summary: [(solver: String, counts: [Verdict: Int])] {
        solvers.map { spec in
            var counts: [Verdict: Int] = [:]
            for c in cases { for r in c.results where r.solver == spec.name { counts[r.verdict, default: 0] += 1 } }
            return (spec.name, counts)
        }
    }

    /// Whether a case could not be read, or a built-in solver (with `strict`,
    /// any solver) failed or errored. Why external solvers do not fail a run by
    /// default: they are measured, not maintained here; their crashes and wrong
    /// answers are reported in full, and `--strict` makes them count.
    public func hasFailures(strict: Bool) -> Bool {
        let counted = Set(solvers.filter { strict || !$0.isExternal }.map(\.name))
        return !problems.isEmpty || (strict && !unavailable.isEmpty) || cases.contains { $0.results.contains { counted.contains($0.solver) && $0.verdict.isFailure } }
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }

    public func json() -> JSONValue {
        let machineJSON = JSONValue.object([
            ("cpu", .string(machine.cpu)), ("cores", .number(Double(machine.cores))),
            ("memory_bytes", .number(Double(machine.memoryBytes))), ("os", .string(machine.os)),
            ("swift", .string(machine.swift)), ("glpk", .string(machine.glpk)),
            ("commit", machine.commit.map { .string($0) } ?? .null),
        ])
        let solversJSON: [JSONValue] = solvers.map { spec in
            let kind: String
            switch spec.kind {
            case .cassowary, .glpk: kind = "built-in"
            case .external: kind = "external"
            }
            var fields: [(String, JSONValue)] = [("name", .string(spec.name)), ("kind", .string(kind)),
                                                 ("reference", .bool(spec.name == reference))]
            if case .external(let command, let directory) = spec.kind {
                fields += [("command", .array(command.map { .string($0) })),
                           ("working_directory", directory.map { .string($0) } ?? .null),
                           ("protocol", .number(Double(ExternalSolver.protocolVersion))),
                           ("hello", hellos[spec.name]?.json ?? .null)]
            }
            return .object(fields)
        }
        let unavailableJSON: [JSONValue] = unavailable.map { entry in
            var command: [String] = []
            if case .external(let c, _) = entry.spec.kind { command = c }
            return .object([("name", .string(entry.spec.name)), ("command", .array(command.map { .string($0) })),
                            ("reason", .string(entry.reason))])
        }
        let casesJSON: [JSONValue] = cases.map(Self.caseJSON)
        let summaryJSON = JSONValue.object(summary.map { entry in
            (entry.solver, JSONValue.object(Verdict.allCases.map { ($0.rawValue, .number(Double(entry.counts[$0] ?? 0))) }))
        })
        return .object([
            ("schema", .string(Self.schema)), ("version", .number(Double(Self.version))),
            ("started", .string(Self.iso(started))), ("finished", .string(Self.iso(finished))),
            ("machine", machineJSON), ("settings", .object(settings)), ("solvers", .array(solversJSON)),
            ("unavailable_solvers", .array(unavailableJSON)),
            ("peak_rss_bytes", .number(Double(Self.peakResidentBytes()))),
            ("yardstick", TimingSummary(yardstick).map { summary in
                .object([("median", .number(summary.median)), ("n", .number(Double(summary.count))),
                         ("samples", .array(yardstick.map { .number($0) }))])
            } ?? .null),
            ("problems", .array(problems.map { .object([("case", .string($0.name)), ("message", .string($0.message))]) })),
            ("cases", .array(casesJSON)), ("summary", summaryJSON),
        ])
    }

    /// The process's peak resident memory (built-in solvers run in it); also
    /// what `solve --profile` reports.
    public static func peakResidentBytes() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1024  // Linux reports kilobytes
    }

    static func caseJSON(_ c: CaseResult) -> JSONValue {
        let results: [JSONValue] = c.results.map { r in
            let frames = JSONValue.object(zip(r.viewNames, r.frames).map { name, f in
                (name, JSONValue.array([f.x, f.y, f.width, f.height].map { JSONValue.number($0) }))
            })
            return .object([
                ("variant", .string(r.variant)), ("solver", .string(r.solver)), ("verdict", .string(r.verdict.rawValue)),
                ("reasons", .array(r.reasons.map { .string($0) })),
                ("status", r.status.map { .string($0.rawValue) } ?? .null),
                ("levels", .array(r.levels.map { .object([("priority", .number($0.priority.rawValue)), ("error", .number($0.error))]) })),
                ("ambiguous", r.ambiguous.map { .array($0.map { .string($0) }) } ?? .null),
                ("conflict", .array(r.conflict.map { .string($0) })),
                ("frames", frames),
            ])
        }
        let timings: [JSONValue] = c.timings.map { t in
            let interval = Confidence.median(t.samples, level: 0.95)
            return .object([("solver", .string(t.solver)), ("phase", .string(t.phase.rawValue)), ("min", .number(t.summary.minimum)),
                     ("median", .number(t.summary.median)),
                     ("median_ci", interval.map { .array([.number($0.low), .number($0.high)]) } ?? .null),
                     ("p90", t.summary.p90.map { .number($0) } ?? .null),
                     ("max", .number(t.summary.maximum)), ("n", .number(Double(t.summary.count))),
                     ("iterations", .number(Double(t.iterations))), ("samples", .array(t.samples.map { .number($0) }))])
        }
        let counters = JSONValue.object(c.counters.keys.sorted().map { solver in
            (solver, JSONValue.object((c.counters[solver] ?? [:]).keys.sorted().map { ($0, .number(c.counters[solver]?[$0] ?? 0)) }))
        })
        var fields: [(String, JSONValue)] = [
            ("name", .string(c.name)), ("source", .string(c.source)), ("views", .number(Double(c.views))),
            ("constraints", .number(Double(c.constraints))), ("variants", .array(c.variants.map { .string($0) })),
            ("results", .array(results)), ("timings", .array(timings)), ("counters", counters),
        ]
        if !c.untimed.isEmpty {
            fields.append(("untimed", .object(c.untimed.keys.sorted().map { ($0, .array((c.untimed[$0] ?? []).map { .string($0.rawValue) })) })))
        }
        // Only layouts with content carry the key: older readers and files are unchanged.
        if !c.content.isEmpty {
            fields.append(("content", .object(c.content.map { entry in
                var item: [(String, JSONValue)] = []
                if let size = entry.content.intrinsicSize {
                    item.append(("intrinsic", .array([size.width, size.height].map { $0.map(JSONValue.number) ?? .null })))
                }
                if let b = entry.content.baselines { item.append(("baselines", .array([.number(b.first), .number(b.last)]))) }
                return (entry.view, JSONValue.object(item))
            })))
        }
        return .object(fields)
    }

    /// Writes the document atomically (a temporary file renamed into place),
    /// so an interrupted run never leaves a half-written results file.
    /// - Throws: the file system's error.
    public func write(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((json().serialized(indent: 1) + "\n").utf8).write(to: url, options: .atomic)
    }
}
