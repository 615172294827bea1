import ArgumentParser
import BenchGate
import BenchReports
import BenchSchema
import Foundation

/// `layout-bench gate`: the same-machine A/B gate against a base revision
/// (the default), or a run against a stored baseline.
struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Gate performance: head against a base revision on this machine (A/B), or a run against a stored baseline. Exit 0 no regression, 2 regression, 4 only improvements.",
        discussion: """
            A/B (the default, and what CI uses): builds the base revision's release binary (--against REV, \
            default: the previous commit on main, else where the branch left main; cached in .build-gate-COMMIT/) \
            or takes --against-binary, then runs both binaries' `run` on the same cases in alternating processes \
            (ABBA order, --rounds rounds, each in the steady environment: fixed hashing, no address \
            randomisation) and compares the rounds pairwise: per case x solver x phase the median over rounds of \
            head/base, and per solver and phase the geometric mean over cases, each with an interval from the \
            spread between rounds (Student t, 99% family-wise). Verdicts, counters and allocation counts compare \
            exactly; a solver or case the base has and the head lacks is a regression unless --allow-missing. \
            --replay DIR compares rounds stored by an earlier gate without running anything.

            Counts (--counts FILE --counts-baseline FILE): exact counts of a fixed workload (scripts/gate-callgrind's \
            instructions) against stored ones, --threshold either way (default 1%); a workload the baseline lacks \
            is a regression (record it).

            Stored baseline (--baseline NAME, with RESULTS): as before; its verdicts on times hold only on the \
            machine that recorded it, and the gate says so when the machines differ.

            Writes gate.md and gate.html (the report with every timing's change, interval and decision) to \
            --output (A/B: default Reports/gate/) or next to RESULTS. Exit codes: 0 no regression, 2 regression, \
            4 only improvements, 64 usage (an unknown revision), 65 a file that is not results or a baseline, \
            66 a file that cannot be read, 70 the base revision does not build or a run failed, 73 an output \
            cannot be written.
            """
    )

    // MARK: Stored baseline

    @Option(help: "Gate RESULTS against this stored baseline (Reports/baselines/NAME.json or a path) instead of A/B.")
    var baseline: String?

    @Argument(help: "With --baseline: a results.json (default Reports/latest/results.json).")
    var results: String?

    @Flag(help: "With --baseline: gate only the cases both have (a run on a subset).")
    var onlyCommon = false

    @Flag(help: "With --baseline: cases missing from the baseline are reported, not regressions.")
    var lenient = false

    // MARK: Counts

    @Option(help: "Gate these counts (a JSON object: workload -> count, e.g. callgrind's instructions) against --counts-baseline.")
    var counts: String?

    @Option(help: "With --counts: the stored counts (a JSON object of the same form).")
    var countsBaseline: String?

    // MARK: A/B

    @Option(help: "The base revision (default: HEAD~1 on main, else the merge base with main).")
    var against: String?

    @Option(help: "The base binary, instead of building a revision.")
    var againstBinary: String?

    @Option(help: "The head binary (default: this one).")
    var binary: String?

    // Why 8 rounds of 0.1 s per case rather than 6 of 0.15 (about the same
    // time per gate): the noise that matters is between processes, and the
    // interval shrinks with t(R - 1) / sqrt(R): 2.80 at 6 rounds, 1.91 at 8.
    // The trials of both settings are in docs/measurements.md#m-gate-ab; the
    // design in docs/design/gates.md ("The A/B gate").
    @Option(help: "Rounds (one process of each binary per round).")
    var rounds = 8

    @Option(help: "`run --time-budget` of each process (seconds per case).")
    var timeBudget = 0.1

    @Option(help: "`run --solvers` of each process.")
    var solvers = SolverNames(["cassowary", "glpk"])

    @Option(help: "`run --scale` of each process.")
    var scale = "small"

    @Option(help: "`run --filter` of each process (repeatable).")
    var filter: [String] = []

    @Option(help: "Compare the rounds stored in this folder (a gate's output) instead of running.")
    var replay: String?

    @Option(help: "Where the rounds, gate.md and gate.html go (A/B; default Reports/gate/).")
    var output: String?

    // MARK: Both

    @Option(help: "Per-case time threshold, e.g. 25% or 0.25 (default: 25%, the reference solver 100%; a baseline's own).")
    var threshold: Threshold?

    @Option(help: "Threshold of a solver's phase over all cases, e.g. 10% (default: 10%, the reference 30%; a baseline's own).")
    var aggregateThreshold: Threshold?

    @Flag(help: "A solver or case of the base (or baseline) that the head lacks is reported, not a regression.")
    var allowMissing = false

    @Option(help: "Where to write the Markdown (default gate.md in the output folder).")
    var markdown: String?

    func validate() throws {
        let modes = [baseline != nil, against != nil || againstBinary != nil, replay != nil, counts != nil].filter { $0 }.count
        guard modes <= 1, !(against != nil && againstBinary != nil) else {
            throw ValidationError("give one of --baseline, --against (or --against-binary), --replay, --counts")
        }
        guard (counts == nil) == (countsBaseline == nil) else { throw ValidationError("--counts and --counts-baseline go together") }
        if baseline == nil && (results != nil || onlyCommon || lenient) {
            throw ValidationError("RESULTS, --only-common and --lenient go with --baseline")
        }
        guard (1...100).contains(rounds) else { throw ValidationError("--rounds must be in 1...100") }
        guard timeBudget >= 0, timeBudget <= 60 else { throw ValidationError("--time-budget must be in 0...60 seconds") }
    }

    /// A baseline's file: NAME.json under `Reports/baselines/` of the working
    /// directory (the user's project); for reading, the tool's own checkout's
    /// when the working directory has none of that name (`gate --baseline ci`
    /// from anywhere). A path is itself.
    static func baselinePath(_ name: String, forWriting: Bool = false) -> String {
        if name.hasSuffix(".json") || name.contains("/") { return name }
        let local = "Reports/baselines/\(name).json"
        if forWriting || FileManager.default.fileExists(atPath: local) { return local }
        return (Inputs.repositoryRoot() as NSString).appendingPathComponent(local)
    }

    func run() throws {
        if let baseline { return try gateBaseline(baseline) }
        if let counts, let countsBaseline { return try gateCounts(counts, against: countsBaseline) }
        let root = Inputs.repositoryRoot()
        let directory = replay ?? output ?? (root as NSString).appendingPathComponent("Reports/gate")
        let rounds: [PairedGate.Round]
        var description: String
        var baseCommit: String?
        if let replay {
            do { rounds = try InterleavedRuns.load(replay) } catch {
                throw ToolError(message: error.description, status: FileManager.default.fileExists(atPath: replay) ? .dataError : .noInput)
            }
            description = "the rounds in \(replay)"
        } else {
            let (base, name, commit) = try baseBinary(root: root)
            baseCommit = commit
            let head = binary ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            guard let corpus = Inputs.defaultCorpus() else {
                throw ToolError(message: "no Corpus/ directory here or next to the binary", status: .noInput)
            }
            var arguments = [corpus, "--solvers", solvers.description, "--scale", scale, "--time-budget", String(timeBudget), "--no-progress", "--quiet"]
            for f in filter { arguments += ["--filter", f] }
            let runs = InterleavedRuns(base: .init(binary: base, environment: commit.map { ["LAYOUT_BENCH_COMMIT": $0] } ?? [:]),
                                       head: .init(binary: head), arguments: arguments,
                                       rounds: self.rounds, directory: directory)
            printError("gate: \(self.rounds) rounds of `run \(arguments.joined(separator: " "))`, base \(name) against head \(head), ABBA order")
            let started = Date()
            do { rounds = try runs.run { printError("gate: \($0)") } } catch {
                throw ToolError(message: error.description, status: .software)
            }
            printError(String(format: "gate: %d processes in %.0f s", 2 * self.rounds, Date().timeIntervalSince(started)))
            description = "base \(name)"
        }
        guard var report = PairedGate.compare(rounds, threshold: threshold?.fraction, aggregateThreshold: aggregateThreshold?.fraction,
                                              allowMissing: allowMissing) else {
            throw ToolError(message: "no rounds to compare", status: .noInput)
        }
        // Regressions this checkout says it makes on purpose, against this base.
        if let base = baseCommit ?? rounds[0].base.machine.commit {
            let file = (root as NSString).appendingPathComponent("Reports/baselines/acknowledged.json")
            do { report = try Acknowledgments.read(file).applied(to: report, base: base) } catch {
                throw ToolError(message: error.description, status: .dataError)
            }
        }
        let outcome = report.outcome(lenient: true)
        description = "head against \(description), \(rounds.count) round(s)"
        print(Self.table(report, outcome: outcome, title: "gate A/B, \(description)", against: "rounds"), terminator: "")
        try writePages(report, results: rounds[0].head, folder: directory)
        if outcome != .pass { throw ExitStatus(outcome).exitCode }
    }

    /// The base binary: given, or built from the revision; and how to name it.
    func baseBinary(root: String) throws -> (path: String, name: String, commit: String?) {
        if let againstBinary {
            guard FileManager.default.isExecutableFile(atPath: againstBinary) else {
                throw ToolError(message: "--against-binary \(againstBinary): not an executable file", status: .noInput)
            }
            return (againstBinary, againstBinary, nil)
        }
        let revision = against ?? RevisionBuild.defaultRevision(repository: root)
        let commit: String
        do { commit = try RevisionBuild.resolve(revision, repository: root) } catch {
            throw ToolError(message: error.description, status: .usage)
        }
        do {
            let path = try RevisionBuild.binary(commit: commit, repository: root) { printError("gate: \($0)") }
            return (path, "\(revision) (\(commit.prefix(12)))", commit)
        } catch {
            throw ToolError(message: error.description, status: .software)
        }
    }

    func writePages(_ report: GateReport, results: ResultsDocument, folder: String) throws {
        let target = markdown ?? (folder as NSString).appendingPathComponent("gate.md")
        try Inputs.write(MarkdownReport.render(results, gate: report), to: target)
        // The same comparison in the HTML report, timing by timing, next to the Markdown.
        let page = ((target as NSString).deletingLastPathComponent as NSString).appendingPathComponent("gate.html")
        try Inputs.write(HTMLReport.render(results, gate: report), to: page)
    }

    func gateBaseline(_ name: String) throws {
        let path = ReportWriter.resultsPath(results)
        let file = try ReportWriter.read(path)
        let stored: Baseline
        do { stored = try Baseline.read(Self.baselinePath(name)) } catch {
            throw ToolError(message: error.description, status: error.missing ? .noInput : .dataError)
        }
        let report = Gate.compare(file, with: stored, threshold: threshold?.fraction, aggregateThreshold: aggregateThreshold?.fraction,
                                  onlyCommon: onlyCommon, allowMissing: allowMissing || onlyCommon)
        let outcome = report.outcome(lenient: lenient || onlyCommon)
        var title = "gate against '\(name)'"
        if let note = Self.machineNote(file, stored) { printError("note: \(note)"); title += " (indicative only: another machine)" }
        print(Self.table(report, outcome: outcome, title: title,
                         against: "a baseline of \(report.baselineRuns) run(s)"), terminator: "")
        try writePages(report, results: file, folder: (path as NSString).deletingLastPathComponent)
        if outcome != .pass { throw ExitStatus(outcome).exitCode }
    }

    /// `--counts`: exact counts against stored ones, `--threshold` (default 1%) either way.
    func gateCounts(_ path: String, against basePath: String) throws {
        func read(_ file: String) throws -> [String: Double] {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ToolError(message: "cannot read \(file)", status: .noInput)
            }
            guard let object = try? JSONDecoder().decode([String: Double].self, from: data) else {
                throw ToolError(message: "\(file): not a JSON object of workload -> count", status: .dataError)
            }
            return object
        }
        let limit = threshold?.fraction ?? 0.01
        let report = Gate.compareCounts(try read(path), with: try read(basePath), threshold: limit)
        let outcome = report.outcome(lenient: false)
        var rows = [["", "workload", "baseline", "now", "change"]]
        for f in report.findings {
            rows.append([f.kind == .noise ? "" : f.kind.rawValue, f.subject, f.baseline, f.current,
                         f.change.map { String(format: "%+.2f%%", $0 * 100) } ?? ""])
        }
        let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        print("gate on counts against \(basePath), threshold \(String(format: "%g%%", limit * 100)): "
              + (outcome == .pass ? "no regression" : outcome == .regression ? "REGRESSION" : "only improvements"))
        for row in rows {
            print(row.enumerated().map { c, s in s + String(repeating: " ", count: widths[c] - s.count) }.joined(separator: "  "))
        }
        if outcome != .pass { throw ExitStatus(outcome).exitCode }
    }

    /// Why a stored baseline's time verdicts may not hold for this run: a
    /// machine other than the one that recorded it. Nil when it is the same.
    static func machineNote(_ run: ResultsDocument, _ baseline: Baseline) -> String? {
        let advice = "its time verdicts are indicative only (a baseline does not travel between machines); "
            + "gate with `layout-bench gate --against REV`, which times both revisions here"
        guard let recorded = baseline.machine else {
            return "the baseline does not say which machine recorded it; " + advice
        }
        if recorded.cpu != run.machine.cpu || recorded.cores != run.machine.cores {
            return "the baseline was recorded on \(recorded.cpu) (\(recorded.cores) cores), this run on \(run.machine.cpu) "
                + "(\(run.machine.cores) cores); " + advice
        }
        if let before = baseline.yardstick?.median, let now = run.yardstick?.median, before > 0,
           abs(Foundation.log(now / before)) > Foundation.log(1.10) {
            return String(format: "the yardstick ran %+.0f%% against the baseline's on the same CPU model; ", (now / before - 1) * 100) + advice
        }
        return nil
    }

    static func table(_ report: GateReport, outcome: Gate.Outcome, title: String, against: String) -> String {
        let findings = report.findings
        let moved = findings.filter { $0.kind != .noise }
        let compared = findings.filter { $0.interval != nil }.count
        var out = "\(title): "
        switch outcome {
        case .pass: out += "no regression"
        case .regression: out += "REGRESSION"
        case .improvementsOnly: out += "only improvements"
        }
        out += " (\(moved.count) moved, \(findings.count - moved.count) within the noise; \(compared) times compared at "
            + String(format: "%.0f%%", report.confidence * 100) + " confidence against \(against))\n"
        if let drift = report.drift {
            out += "machine drift (the yardstick, now against the baseline): " + GateText.change(drift.estimate)
                + " " + GateText.interval(drift) + (report.driftCorrected ? ", divided out of every time" : ", within the dead band: not corrected") + "\n"
        }
        // Every solver's phase over all cases, moved or not: what the gate saw at a glance.
        let aggregates = findings.filter { $0.metric.hasSuffix(", all cases") }
        guard !moved.isEmpty || !aggregates.isEmpty else { return out }
        var rows = [["", "metric", "case", "base", "head", "change", "interval", "threshold"]]
        for f in moved + aggregates.filter({ $0.kind == .noise }) {
            rows.append([f.kind.rawValue, f.metric, f.subject, f.baseline, f.current, f.change.map(GateText.change) ?? "",
                         f.interval.map(GateText.interval) ?? "", f.threshold.map { String(format: "%.0f%%", $0 * 100) } ?? ""])
        }
        let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        for row in rows {
            out += row.enumerated().map { c, s in s + String(repeating: " ", count: widths[c] - s.count) }.joined(separator: "  ") + "\n"
        }
        return out
    }
}
