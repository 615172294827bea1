import BenchSchema
import BenchStatistics
import ExternalSolvers
import Foundation
import LayoutModel
import LayoutSolving

/// A run as the harness made it; ``document()`` is what `results.json`
/// holds (``ResultsDocument``, the format's one owner).
public struct RunResults: Sendable {
    public var started: Date
    public var finished: Date
    public var machine: MachineInfo
    public var settings: ResultsDocument.Settings
    public var solvers: [SolverSpec]
    public var problems: [CaseProblem]
    public var cases: [CaseResult]
    /// Seconds of one ``Runner/yardstick()`` call, one per sample round.
    public var yardstick: [Double]
    /// What each external solver said in `hello` (its provenance).
    public var hellos: [String: SolverHello] = [:]
    /// Where each external solver's command came from (``SolverRegistry/origins``).
    public var origins: [String: String] = [:]
    /// External solvers left out because they could not start, and why.
    public var unavailable: [(spec: SolverSpec, reason: String)] = []
    /// The solver the others were judged against (``RunSettings/reference``).
    public var reference = "glpk"

    public init(started: Date, finished: Date, machine: MachineInfo, settings: ResultsDocument.Settings, solvers: [SolverSpec],
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

    /// The results document: what `results.json` holds and the reports read.
    /// - Parameter peakResidentBytes: the process's peak memory (nil: now's).
    /// - Complexity: O(size of the results).
    public func document(peakResidentBytes: Int? = nil) -> ResultsDocument {
        let machineRecord = ResultsDocument.Machine(cpu: machine.cpu, cores: machine.cores, memory_bytes: Double(machine.memoryBytes),
                                                    os: machine.os, swift: machine.swift, glpk: machine.glpk, commit: machine.commit)
        let solverRecords = solvers.map { spec -> ResultsDocument.Solver in
            guard case .external(let command, let directory) = spec.kind else {
                // A built-in solver's capabilities are what its type declares;
                // its version is the library's (GLPK) or this checkout's commit.
                let c = spec.make(timeout: 1, ambiguity: false).capabilities
                let profile = ResultsDocument.Solver.Profile(
                    version: spec.isGLPK ? machine.glpk : machine.commit.map { String($0.prefix(12)) } ?? "this build", semantics: c.prioritySemantics.rawValue,
                    incremental: c.incremental, edits: c.editVariables, ambiguity: c.ambiguityAnalysis)
                return ResultsDocument.Solver(name: spec.name, kind: "built-in", reference: spec.name == reference,
                                              family: spec.family, profile: profile)
            }
            let hello = hellos[spec.name].map { h in
                ResultsDocument.Solver.Hello(name: h.name, version: h.version, protocol: h.protocolVersion, semantics: h.semantics.rawValue,
                                             incremental: h.incremental, edits: h.edits, max_rows: h.maxRows, ambiguity: h.ambiguity)
            }
            let profile = hello.map {
                ResultsDocument.Solver.Profile(version: $0.version, semantics: $0.semantics, incremental: $0.incremental,
                                               edits: $0.edits, ambiguity: $0.ambiguity ?? false)
            }
            return ResultsDocument.Solver(name: spec.name, kind: "external", reference: spec.name == reference, command: command,
                                          working_directory: directory, protocol: ExternalSolver.protocolVersion, hello: hello,
                                          registry: origins[spec.name], family: spec.family, profile: profile)
        }
        let unavailableRecords = unavailable.map { entry -> ResultsDocument.UnavailableSolver in
            var command: [String] = []
            if case .external(let c, _) = entry.spec.kind { command = c }
            return ResultsDocument.UnavailableSolver(name: entry.spec.name, command: command, reason: entry.reason)
        }
        let yardstickRecord = TimingSummary(yardstick).map { ResultsDocument.Yardstick(median: $0.median, n: $0.count, samples: yardstick) }
        return ResultsDocument(started: Self.iso(started), finished: Self.iso(finished), machine: machineRecord, settings: settings,
                               solvers: solverRecords, unavailable_solvers: unavailableRecords,
                               peak_rss_bytes: peakResidentBytes ?? Self.peakResidentBytes(), yardstick: yardstickRecord,
                               problems: problems.map { ResultsDocument.Problem(case: $0.name, message: $0.message) },
                               cases: cases.map(Self.caseRecord))
    }

    /// The process's peak resident memory (built-in solvers run in it); also
    /// what `solve --profile` reports.
    public static func peakResidentBytes() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1024  // Linux reports kilobytes
    }

    static func caseRecord(_ c: CaseResult) -> ResultsDocument.Case {
        let results = c.results.map { r in
            var record = ResultsDocument.Result(
                variant: r.variant, solver: r.solver, verdict: r.verdict, reasons: r.reasons, status: r.status?.rawValue,
                levels: r.levels.map { ResultsDocument.Level(priority: $0.priority.rawValue, error: $0.error) },
                ambiguous: r.ambiguous, conflict: r.conflict,
                // Why `uniquingKeysWith`: view names are unique in a valid layout;
                // should a solver repeat one, the first frame is kept, not a trap.
                frames: Dictionary(zip(r.viewNames, r.frames.map { [$0.x, $0.y, $0.width, $0.height] }), uniquingKeysWith: { first, _ in first }))
            record.observed = r.observed
            return record
        }
        let timings = c.timings.map { t in
            ResultsDocument.Timing(solver: t.solver, phase: t.phase, min: t.summary.minimum, median: t.summary.median,
                                   median_ci: Confidence.median(t.samples, level: 0.95).map { [$0.low, $0.high] }, p90: t.summary.p90,
                                   max: t.summary.maximum, n: t.summary.count, iterations: t.iterations, samples: t.samples)
        }
        var content: [String: ResultsDocument.Content] = [:]
        for entry in c.content where content[entry.view] == nil {
            content[entry.view] = ResultsDocument.Content(
                intrinsic: entry.content.intrinsicSize.map { [$0.width, $0.height] },
                baselines: entry.content.baselines.map { [$0.first, $0.last] })
        }
        return ResultsDocument.Case(name: c.name, source: c.source, views: c.views, constraints: c.constraints, variants: c.variants,
                                    results: results, timings: timings, counters: c.counters,
                                    untimed: c.untimed.isEmpty ? nil : c.untimed,
                                    // Only layouts with content carry the key.
                                    content: content.isEmpty ? nil : content, reference: c.judge)
    }

    /// Writes the document atomically (a temporary file renamed into place),
    /// so an interrupted run never leaves a half-written results file.
    /// - Throws: the file system's error.
    public func write(to url: URL) throws {
        try document().write(to: url)
    }
}
