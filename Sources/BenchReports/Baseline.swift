// The stored baseline: its model (thresholds, per-case verdicts, counters and
// times, the yardstick, the machine), how it is made from runs, and how it is
// written and read back.

import BenchMetrics
import BenchSchema
import BenchStatistics
import Foundation

/// A stored baseline: what the gate needs to decide, from one or more runs of
/// the same code.
///
/// Schema `layout-bench/baseline`, version 2: `{"schema", "version", "created",
/// "commit", "runs", "reference", "thresholds": {"time", "aggregate", "confidence", "counter", "allocations",
/// "solvers": {SOLVER: {"time", "aggregate"}}, "cases": {GLOB: {"time", "counter"}}},
/// "cases": {CASE: {"verdicts": {"VARIANT/SOLVER": verdict}, "counters": {SOLVER: {NAME: value}},
/// "times": {"SOLVER/PHASE": {"median", "runs", "within", "n"}}}}}`. Times are seconds per operation.
public struct Baseline: Codable, Sendable {
    public static let schemaName = "layout-bench/baseline"
    public static let currentVersion = 2

    public struct Thresholds: Codable, Sendable {
        /// The least change of one case's time that counts (0.25 = 25%); a
        /// change must also be significant (see ``Gate``).
        public var time: Double
        /// The least change of a solver's phase over all cases (the geometric
        /// mean of the cases' ratios) that counts; nil means ``defaultAggregate``.
        public var aggregate: Double?
        /// The confidence of the intervals (nil: ``defaultConfidence``).
        public var confidence: Double?
        /// Relative change of an exact counter that counts (0 = any change).
        public var counter: Double
        /// Relative change of an allocation count (`allocations/PHASE`) that
        /// counts; nil means ``defaultAllocations``. Never below `counter`.
        public var allocations: Double?
        /// Per-solver overrides of `time` and `aggregate`.
        public var solvers: [String: SolverThresholds]?
        /// Per-case overrides by glob (`family/*`).
        public var cases: [String: CaseThresholds]?

        /// 2%. Why not zero: in release builds, over three runs of unchanged
        /// code, every phase but `load` repeated exactly and loads moved by up
        /// to 1.2% (2 of 171; with seeded hashing by one allocation), so some
        /// allocation in a load depends on more than the code path. A real
        /// regression (one more allocation per constraint) is tens of percent.
        public static let defaultAllocations = 0.02
        /// A change of at most this many allocations is noise whatever the
        /// percentage (small counts: 2 of 100 is already 2%).
        public static let allocationSlack = 4.0
        /// 10%: a solver's phase over every case moves by at most 5.6% between
        /// runs of unchanged code on this machine (docs/design/gates.md).
        public static let defaultAggregate = 0.10
        /// 99%: with about 150 timings per run, a 95% interval would exclude
        /// the truth somewhere in most runs.
        public static let defaultConfidence = 0.99
        /// What a baseline stores for the reference solver unless told
        /// otherwise: a case's time must double, the mean over cases grow by
        /// 20%. Why: each of its times includes a hand-off to GLPK's thread,
        /// and a whole process can land on a slow placement of it (measured:
        /// one run in five put a case 30–50% above the others, while
        /// cassowary's cases stayed within 15%, and one process in five had every glpk time 15% slower). The reference's speed is GLPK's,
        /// not this project's claim; its verdicts and counters gate exactly.
        public static let reference = SolverThresholds(time: 1.0, aggregate: 0.30)

        public init(time: Double = 0.25, aggregate: Double? = nil, confidence: Double? = nil, counter: Double = 0,
                    allocations: Double? = nil, solvers: [String: SolverThresholds]? = nil,
                    cases: [String: CaseThresholds]? = nil) {
            self.time = time
            self.aggregate = aggregate
            self.confidence = confidence
            self.counter = counter
            self.allocations = allocations
            self.solvers = solvers
            self.cases = cases
        }
    }

    public struct SolverThresholds: Codable, Sendable {
        public var time: Double?
        public var aggregate: Double?

        public init(time: Double?, aggregate: Double?) {
            self.time = time
            self.aggregate = aggregate
        }
    }

    public struct CaseThresholds: Codable, Sendable {
        public var time: Double?
        public var counter: Double?

        public init(time: Double?, counter: Double?) {
            self.time = time
            self.counter = counter
        }
    }

    /// One timing of one case and solver.
    public struct Time: Codable, Sendable {
        /// Seconds per operation: the median over the runs of each run's median.
        public var median: Double
        /// Each run's median (seconds per operation), in the order given.
        public var runs: [Double]
        /// The within-run uncertainty of one run's median: the larger half of
        /// its interval at the baseline's confidence, in natural-log units
        /// (the median over the runs).
        public var within: Double
        /// Samples per run (the median over the runs).
        public var n: Int
    }

    public struct CaseEntry: Codable, Sendable {
        public var verdicts: [VariantSolver: Verdict]
        public var counters: [String: [Counter: Double]]
        /// Per solver and allocation counter, the lowest and highest count
        /// over the baseline's runs. Why: a load's allocations differ by a few
        /// between processes of unchanged code (measured: up to 6 on 270, with
        /// a fixed hash seed and no address randomisation), so one run's count
        /// is not the code path's only count. Absent in a one-run baseline.
        public var counterRanges: [String: [Counter: [Double]]]?
        public var times: [SolverPhase: Time]
    }

    public var schema = Baseline.schemaName
    public var version = Baseline.currentVersion
    public var created: String
    public var commit: String?
    /// How many runs the baseline was made from (between-run variation is
    /// estimated from them; with one, a prior is used, see ``Gate``).
    public var runs: Int
    /// The reference solver of the runs.
    public var reference: String?
    /// The runs' yardstick (seconds of one call; see `Runner.yardstick()`):
    /// each run's median, and their median. Every time in ``cases`` is stated
    /// at this median speed (each run's times scaled by its yardstick's ratio
    /// to it), so that a run on a slower day compares like with like.
    public var yardstick: Time?
    public var thresholds: Thresholds
    public var cases: [String: CaseEntry]
    /// The machine that recorded the runs (CPU model and cores); nil in a
    /// baseline saved before it was recorded. Why: a baseline's times hold
    /// only on the machine that recorded them (the gate says so elsewhere).
    public var machine: Machine?

    /// Which machine recorded a baseline.
    public struct Machine: Codable, Sendable, Equatable {
        public var cpu: String
        public var cores: Int

        public init(cpu: String, cores: Int) {
            self.cpu = cpu
            self.cores = cores
        }
    }

    /// A baseline from one or more runs of the same code: per timing, each
    /// run's median and their median; verdicts and counters of the last run.
    /// Why several runs: one run's disturbance must not become the baseline,
    /// and the spread between runs is what tells noise from change.
    /// - Returns: nil for no runs.
    /// - Complexity: O(total samples · log).
    public static func from(_ runs: [ResultsDocument], thresholds: Thresholds = Thresholds()) -> Baseline? {
        guard let last = runs.last else { return nil }
        let level = thresholds.confidence ?? Thresholds.defaultConfidence
        // The machine's speed in each run; nil unless every run measured it.
        let speeds = runs.map { $0.yardstick?.median }
        var yardstick: Time?
        var scale = [Double](repeating: 1, count: runs.count)
        if speeds.allSatisfy({ ($0 ?? 0) > 0 }) {
            let medians = speeds.compactMap { $0 }
            let centre = TimingSummary.median(sorted: medians.sorted())
            scale = medians.map { centre / $0 }
            let withins = runs.compactMap { run in run.yardstick.map { y in Gate.halfWidth(samples: y.samples, level: level) } }
            yardstick = Time(median: centre, runs: medians, within: TimingSummary.median(sorted: withins.sorted()),
                             n: runs.compactMap { $0.yardstick?.n }.sorted()[runs.count / 2])
        }
        var cases: [String: CaseEntry] = [:]
        for c in last.cases {
            var verdicts: [VariantSolver: Verdict] = [:]
            for r in c.results { verdicts[VariantSolver(r.variant, r.solver)] = r.verdict }
            var times: [SolverPhase: Time] = [:]
            for t in c.timings {
                let key = SolverPhase(t.solver, t.phase)
                var medians: [Double] = []
                var withins: [Double] = []
                var counts: [Int] = []
                for (r, run) in runs.enumerated() {
                    guard let other = run.cases.first(where: { $0.name == c.name })?.timings
                        .first(where: { $0.solver == t.solver && $0.phase == t.phase }), other.median > 0 else { continue }
                    if let centre = yardstick?.median, let values = Gate.paired(other, run.yardstick, scale: centre) {
                        medians.append(TimingSummary.median(sorted: values.sorted()))
                        withins.append(Gate.halfWidth(samples: values, level: level))
                    } else {
                        medians.append(other.median * scale[r])
                        withins.append(Gate.halfWidth(other, level: level))
                    }
                    counts.append(other.n)
                }
                guard !medians.isEmpty else { continue }
                times[key] = Time(median: TimingSummary.median(sorted: medians.sorted()), runs: medians,
                                  within: TimingSummary.median(sorted: withins.sorted()),
                                  n: counts.sorted()[counts.count / 2])
            }
            var ranges: [String: [Counter: [Double]]] = [:]
            if runs.count >= 2 {
                for (solver, counters) in c.counters {
                    for name in counters.keys where name.isAllocationCount {
                        let values = runs.compactMap { run in run.cases.first { $0.name == c.name }?.counters[solver]?[name] }
                        if let low = values.min(), let high = values.max() { ranges[solver, default: [:]][name] = [low, high] }
                    }
                }
            }
            cases[c.name] = CaseEntry(verdicts: verdicts, counters: c.counters, counterRanges: ranges.isEmpty ? nil : ranges, times: times)
        }
        var stored = thresholds
        if let reference = last.referenceName, stored.solvers?[reference] == nil {
            stored.solvers = (stored.solvers ?? [:]).merging([reference: Thresholds.reference]) { $1 }
        }
        return Baseline(created: last.finished, commit: last.machine.commit, runs: runs.count, reference: last.referenceName,
                        yardstick: yardstick, thresholds: stored, cases: cases,
                        machine: Machine(cpu: last.machine.cpu, cores: last.machine.cores))
    }

    /// The JSON, keys sorted (stable diffs when committed).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// Why a baseline cannot be used, and whether the file was there at all.
    public struct ReadError: Error, CustomStringConvertible {
        public var description: String
        /// True when the file does not exist or cannot be read (exit 66), false when it is not a usable baseline (65).
        public var missing: Bool
    }

    /// Reads and checks a baseline.
    /// - Throws: ``ReadError`` naming the file and what is wrong (an older
    ///   version is refused with the command that re-saves it).
    public static func read(_ path: String) throws(ReadError) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(description: "\(path): cannot read (save one with `layout-bench baseline save`)", missing: true)
        }
        struct Header: Decodable { var schema: String?; var version: Int? }
        let header = try? JSONDecoder().decode(Header.self, from: data)
        guard header?.schema == schemaName else {
            throw ReadError(description: "\(path): not a layout-bench baseline", missing: false)
        }
        guard header?.version == currentVersion else {
            throw ReadError(description: "\(path): baseline version \(header?.version.map(String.init) ?? "?"); this layout-bench reads version \(currentVersion) "
                            + "(it keeps each run's medians); save it again from fresh runs with `layout-bench baseline save`", missing: false)
        }
        do {
            return try JSONDecoder().decode(Baseline.self, from: data)
        } catch {
            throw ReadError(description: "\(path): not a valid baseline (\(error))", missing: false)
        }
    }
}
