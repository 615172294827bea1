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
        /// runs of unchanged code on this machine (README, "Gates").
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

/// One thing compared between a baseline and a run.
public struct GateFinding: Sendable {
    public enum Kind: String, Sendable {
        case regression, improvement
        /// Compared and within the noise: not significant, or smaller than the threshold.
        case noise
        /// A case the baseline does not have (a regression unless lenient).
        case new
        /// A case of the baseline the run does not have (reported only).
        case missing
        /// A regression the commit makes on purpose (``Acknowledgments``): reported, not failing.
        case acknowledged
    }

    public var kind: Kind
    /// `verdict`, a counter's name, `time/PHASE` (one case) or `time/PHASE, all cases` (a solver's aggregate).
    public var metric: String
    public var subject: String
    public var baseline: String
    public var current: String
    /// now / baseline - 1 (for times: of the medians, after any drift correction).
    public var change: Double?
    /// For times: the interval of now / baseline - 1 at the gate's confidence.
    public var interval: Interval?
    /// For times: the threshold the change was held to.
    public var threshold: Double?

    public init(kind: Kind, metric: String, subject: String, baseline: String, current: String, change: Double?,
                interval: Interval? = nil, threshold: Double? = nil) {
        self.kind = kind
        self.metric = metric
        self.subject = subject
        self.baseline = baseline
        self.current = current
        self.change = change
        self.interval = interval
        self.threshold = threshold
    }
}

/// What a gate found: every comparison, and the machine drift it measured.
public struct GateReport: Sendable {
    /// Regressions first, then new and missing cases, improvements, noise.
    public var findings: [GateFinding]
    /// How much slower the machine was than in the baseline's runs (the
    /// yardstick's now / baseline - 1), with its interval.
    public var drift: Interval?
    /// Whether ``drift`` was divided out of every time (both files have a yardstick).
    public var driftCorrected: Bool
    public var confidence: Double
    /// How many runs the baseline was made from.
    public var baselineRuns: Int

    public func outcome(lenient: Bool) -> Gate.Outcome { Gate.outcome(findings, lenient: lenient) }

    public init(findings: [GateFinding], drift: Interval? = nil, driftCorrected: Bool = false, confidence: Double, baselineRuns: Int) {
        self.findings = findings
        self.drift = drift
        self.driftCorrected = driftCorrected
        self.confidence = confidence
        self.baselineRuns = baselineRuns
    }
}

/// Compares a run with a baseline, package-benchmark style (exit 0, 2, 4).
///
/// **Exact metrics** (verdicts, counters, allocation counts) compare as they are.
///
/// **Times** are compared as ratios of medians, now / baseline, in log units,
/// with an interval that has three parts, because a run's own samples do not
/// see the largest source of noise (measured on this machine kind: a case's
/// median moves 5–15% between processes of unchanged code, and glpk's up to
/// 50%, while one run's interval of it is ±1–2%):
/// 1. the run's interval of its median (order statistics of its samples);
/// 2. the baseline's, shrunk by its number of runs;
/// 3. the between-run variation, a random effect: the standard deviation of
///    the log of each baseline run's median (pooled over the cases of the same
///    solver and phase, the larger of the two), counted for the run and for the
///    baseline's centre. With a one-run baseline it is unknown and a prior of
///    ``priorBetweenRun`` is used.
///
/// A time **regresses** when the whole interval is above 1 (significant) and
/// the change is larger than the threshold (relevant); an **improvement** is
/// the mirror image. Each solver's phase is also compared over all cases (the
/// geometric mean of the cases' ratios, its interval from a bootstrap over the
/// cases widened by the between-run variation of that mean): a slowdown of a
/// few percent in every case is invisible case by case and plain in the mean.
///
/// **Drift**: the run samples a yardstick (a fixed workload of its own) once
/// per sample round, and every timing is compared *paired*: each sample
/// divided by the yardstick sample of its round (``paired(_:_:scale:)``), in
/// seconds at the baseline's median yardstick speed. A slower machine today
/// slows both alike, round by round. Why not the reference's times: when the
/// machine slowed CPU-bound work by 1.9x, glpk's times (partly thread
/// wake-ups) moved 1.67x, and dividing by them left 14% of drift in every
/// other solver. Files without a yardstick fall back to raw medians.
public enum Gate {
    public enum Outcome: Int32, Sendable {
        /// Nothing regressed.
        case pass = 0
        case regression = 2
        /// Only improvements: the baseline is stale.
        case improvementsOnly = 4
    }

    /// The between-run standard deviation (log units) assumed for a baseline
    /// of one run: about the 90th percentile of what five runs of unchanged
    /// code showed per case (README, "Gates").
    public static let priorBetweenRun = 0.10
    /// The same for a solver's mean over all cases.
    public static let priorCommonMode = 0.04
    /// The uncertainty of a drift correction, per unit of the drift it
    /// corrects (log units). Why: under heavy contention a machine does not
    /// slow every workload alike (measured: with the yardstick 1.52x slower,
    /// cassowary was 1.67x, parse 1.85x and glpk 1.3-1.4x), so a large
    /// correction leaves residuals of 0.2-0.5 of its size; on a quiet machine
    /// the term is near zero.
    public static let driftUncertainty = 0.25
    /// A solver's phase is compared over all cases from this many cases on.
    public static let minimumAggregateCases = 3

    /// The larger half of a timing's interval of its median at `level`, in log
    /// units (0 without samples: a results file from before samples were kept).
    static func halfWidth(_ t: ResultsDocument.Timing, level: Double) -> Double {
        halfWidth(samples: t.samples ?? [], level: level)
    }

    /// A timing's samples divided, round by round, by the yardstick's sample
    /// of the same round, times `scale` (seconds at that yardstick speed).
    ///
    /// Why paired: every sample round takes one sample of every entrant and
    /// one of the yardstick, about 0.1 s apart at most, while the machine's
    /// speed changes over seconds. Dividing round by round cancels it where a
    /// run-wide correction cannot: in runs where the machine slowed for a
    /// while, the yardstick's median was uncertain by ±20% and the paired
    /// ratios' by a few percent. Nil without samples or a yardstick.
    static func paired(_ t: ResultsDocument.Timing, _ yardstick: ResultsDocument.Yardstick?, scale: Double) -> [Double]? {
        guard let samples = t.samples, let y = yardstick?.samples, !samples.isEmpty, samples.count <= y.count else { return nil }
        var out: [Double] = []
        out.reserveCapacity(samples.count)
        for (i, value) in samples.enumerated() where y[i] > 0 { out.append(value / y[i] * scale) }
        return out.isEmpty ? nil : out
    }

    static func halfWidth(samples: [Double], level: Double) -> Double {
        guard let interval = Confidence.median(samples, level: level), interval.estimate > 0, interval.low > 0 else { return 0 }
        return max(Foundation.log(interval.estimate / interval.low), Foundation.log(interval.high / interval.estimate))
    }

    /// One timing compared.
    struct Comparison {
        var caseName: String
        var solver: String
        var phase: Phase
        var now: ResultsDocument.Timing
        var before: Baseline.Time
        /// log(now median / baseline median): of the paired samples where
        /// there are any, else of the raw ones, drift-corrected later.
        var logRatio: Double
        /// The run's interval of its median, at the per-comparison level.
        var nowHalfWidth: Double
        /// The run's samples paired with its yardstick (see ``paired(_:_:scale:)``).
        var paired: [Double]?
    }

    /// Every comparison of a run with a baseline.
    /// - Parameters:
    ///   - threshold: overrides every per-case time threshold when given.
    ///   - aggregateThreshold: overrides every aggregate threshold when given.
    ///   - onlyCommon: compare only the cases both have; the others are reported, never regressions.
    ///   - allowMissing: a solver of the baseline that the run lacks is reported, not a regression.
    /// - Complexity: O(T log T) for T timings, plus a bootstrap of O(B · cases) per solver and phase.
    public static func compare(_ results: ResultsDocument, with baseline: Baseline, threshold: Double? = nil,
                               aggregateThreshold: Double? = nil, onlyCommon: Bool = false,
                               allowMissing: Bool = false) -> GateReport {
        let level = baseline.thresholds.confidence ?? Baseline.Thresholds.defaultConfidence
        var findings: [GateFinding] = []
        // A solver of the baseline that the run lacks: its coverage is lost
        // (a run without the external solvers would otherwise pass).
        findings += missingSolvers(base: Set(baseline.cases.values.flatMap { $0.verdicts.keys.map(\.solver) }),
                                   now: solvers(of: results), allowMissing: allowMissing)
        var comparisons: [Comparison] = []
        let currentNames = Set(results.cases.map(\.name))

        for c in results.cases.sorted(by: { $0.name < $1.name }) {
            guard let before = baseline.cases[c.name] else {
                findings.append(GateFinding(kind: onlyCommon ? .noise : .new, metric: "case", subject: c.name, baseline: "-",
                                            current: "present", change: nil))
                continue
            }
            // Verdicts: exact.
            var verdicts: [VariantSolver: Verdict] = [:]
            for r in c.results { verdicts[VariantSolver(r.variant, r.solver)] = r.verdict }
            for (key, verdict) in verdicts.sorted(by: { $0.key < $1.key }) {
                guard let old = before.verdicts[key], old != verdict else { continue }
                findings.append(verdictFinding("\(c.name) \(key)", was: old, now: verdict))
            }
            // Counters: exact or near-exact.
            for (solver, counters) in c.counters.sorted(by: { $0.key < $1.key }) {
                for (counter, value) in counters.sorted(by: { $0.key < $1.key }) {
                    guard var old = before.counters[solver]?[counter], old != value else { continue }
                    // Within the baseline runs' own range: as seen from unchanged code.
                    if let range = before.counterRanges?[solver]?[counter], range.count == 2 {
                        if value >= range[0] && value <= range[1] { continue }
                        old = value < range[0] ? range[0] : range[1]
                    }
                    findings.append(counterFinding("\(c.name) \(solver)", counter: counter, value: value, old: old,
                                                   baseline: String(format: "%g", old), caseName: c.name, thresholds: baseline.thresholds))
                }
            }
            for t in c.timings {
                guard let old = before.times[SolverPhase(t.solver, t.phase)], old.median > 0, t.median > 0 else { continue }
                let pairedValues = baseline.yardstick.flatMap { paired(t, results.yardstick, scale: $0.median) }
                // Paired: already at the baseline's machine speed. Raw: drift-corrected below.
                let median = pairedValues.map { TimingSummary.median(sorted: $0.sorted()) } ?? t.median
                comparisons.append(Comparison(caseName: c.name, solver: t.solver, phase: t.phase, now: t, before: old,
                                              logRatio: Foundation.log(median / old.median), nowHalfWidth: 0, paired: pairedValues))
            }
        }
        for name in baseline.cases.keys.sorted() where !currentNames.contains(name) {
            findings.append(GateFinding(kind: .missing, metric: "case", subject: name, baseline: "present", current: "-", change: nil))
        }

        // Why Bonferroni: a run makes about 150 comparisons, and each at 99%
        // gives one false alarm in every few runs (measured on synthetic runs:
        // 3 in 100). The level is family-wise: each comparison of a family (the
        // cases' timings; the solvers' means) is held at 1 - (1 - level) / K,
        // so that with probability `level` none of the K is a false alarm.
        let aggregateCount = Dictionary(grouping: comparisons) { "\($0.solver)/\($0.phase)" }.values
            .filter { $0.count >= minimumAggregateCases }.count
        let caseLevel = 1 - (1 - level) / Double(max(1, comparisons.count))
        let aggregateLevel = 1 - (1 - level) / Double(max(1, aggregateCount))
        let z = Confidence.z(caseLevel)
        let zAggregate = Confidence.z(aggregateLevel)
        let zBaseline = Confidence.z(level)
        for k in comparisons.indices {
            comparisons[k].nowHalfWidth = halfWidth(samples: comparisons[k].paired ?? comparisons[k].now.samples ?? [], level: caseLevel)
        }

        // Machine drift: the run's yardstick against the baseline's. Every
        // time is divided by it, as the baseline's runs were.
        var drift: Interval?
        var corrected = false
        var driftHalfWidth = 0.0
        /// |log drift|: how large a correction was made (``driftUncertainty``).
        var driftShift = 0.0
        if let now = results.yardstick, now.median > 0, let before = baseline.yardstick, before.median > 0 {
            let shift = Foundation.log(now.median / before.median)
            let spread = before.runs.count >= 2 ? standardDeviation(before.runs.map { Foundation.log($0) }) : priorBetweenRun
            // Why at the plain level, not the per-comparison one: the drift is one
            // estimate shared by every comparison, so it takes one share of the
            // family's error, not one per comparison. (At the per-comparison
            // level, a run in which the machine slowed for a while, whose
            // yardstick samples are then bimodal, got a ±25% drift interval that
            // hid a 20% slowdown in every comparison.)
            let nowWithin = halfWidth(samples: now.samples, level: level)
            driftHalfWidth = (nowWithin * nowWithin + before.within * before.within / Double(max(1, before.runs.count))).squareRoot()
            let half = (driftHalfWidth * driftHalfWidth + zBaseline * zBaseline * spread * spread).squareRoot()
            drift = Interval(estimate: Foundation.exp(shift) - 1, low: Foundation.exp(shift - half) - 1, high: Foundation.exp(shift + half) - 1)
            corrected = true
            // Paired timings were corrected round by round; the others by the shift.
            for k in comparisons.indices where comparisons[k].paired == nil { comparisons[k].logRatio -= shift }
            // The shared term only for timings that could not be paired.
            if comparisons.allSatisfy({ $0.paired != nil }) { driftHalfWidth = 0 }
            driftShift = abs(shift)
        }

        // Between-run variation per solver and phase, from the baseline's runs.
        let runs = max(1, baseline.runs)
        var pooled: [String: Double] = [:]
        var commonMode: [String: Double] = [:]
        // Grouped after the drift correction (the groups hold copies).
        let groups = Dictionary(grouping: comparisons) { "\($0.solver)/\($0.phase)" }
        for (key, members) in groups {
            let sds = members.filter { $0.before.runs.count >= 2 }.map { m in standardDeviation(m.before.runs.map { Foundation.log($0) }) }
            if !sds.isEmpty { pooled[key] = TimingSummary.median(sorted: sds.sorted()) }
            // Each baseline run's mean deviation from the centre over the cases
            // that have every run: how much a whole run moves at once.
            let complete = members.filter { $0.before.runs.count == runs }
            if runs >= 3, complete.count >= minimumAggregateCases {
                let means = (0..<runs).map { r in
                    complete.map { Foundation.log($0.before.runs[r] / $0.before.median) }.reduce(0, +) / Double(complete.count)
                }
                commonMode[key] = standardDeviation(means)
            }
        }
        func betweenRun(_ m: Comparison) -> Double {
            let key = "\(m.solver)/\(m.phase)"
            guard m.before.runs.count >= 2 else { return pooled[key] ?? priorBetweenRun }
            return max(standardDeviation(m.before.runs.map { Foundation.log($0) }), pooled[key] ?? 0)
        }

        // Each timing.
        for m in comparisons.sorted(by: { ($0.caseName, $0.solver, $0.phase.rawValue) < ($1.caseName, $1.solver, $1.phase.rawValue) }) {
            var limit = baseline.thresholds.solvers?[m.solver]?.time ?? baseline.thresholds.time
            for (pattern, t) in (baseline.thresholds.cases ?? [:]).sorted(by: { $0.key < $1.key }) where Glob.matches(m.caseName, pattern) {
                if let time = t.time { limit = time }
            }
            if let threshold { limit = threshold }
            let r = Double(m.before.runs.count == 0 ? runs : m.before.runs.count)
            let s = betweenRun(m)
            // The baseline's within-run width was taken at its own level; rescale.
            let within = m.before.within * z / zBaseline
            let correction = z * driftUncertainty * driftShift
            let half = (m.nowHalfWidth * m.nowHalfWidth + within * within / r + driftHalfWidth * driftHalfWidth
                        + z * z * s * s * (1 + 1 / r) + correction * correction).squareRoot()
            let kind = decide(m.logRatio, low: m.logRatio - half, high: m.logRatio + half, threshold: limit)
            findings.append(GateFinding(kind: kind, metric: "time/\(m.phase)", subject: "\(m.caseName) \(m.solver)",
                                        baseline: formatSeconds(m.before.median),
                                        // At the baseline's machine speed, so that change = now / baseline - 1 as shown.
                                        current: formatSeconds(m.before.median * Foundation.exp(m.logRatio)),
                                        change: Foundation.exp(m.logRatio) - 1,
                                        interval: Interval(estimate: Foundation.exp(m.logRatio) - 1, low: Foundation.exp(m.logRatio - half) - 1,
                                                           high: Foundation.exp(m.logRatio + half) - 1),
                                        threshold: limit))
        }

        // Each solver's phase over all cases.
        for key in groups.keys.sorted() {
            guard let members = groups[key], members.count >= minimumAggregateCases,
                  let first = members.first,
                  let boot = Bootstrap.mean(members.map(\.logRatio), level: aggregateLevel, resamples: 20_000) else { continue }
            let common = commonMode[key] ?? priorCommonMode
            let correction = zAggregate * driftUncertainty * driftShift
            let extra = zAggregate * zAggregate * common * common * (1 + 1 / Double(runs)) + driftHalfWidth * driftHalfWidth
                + correction * correction
            let low = boot.estimate - ((boot.estimate - boot.low) * (boot.estimate - boot.low) + extra).squareRoot()
            let high = boot.estimate + ((boot.high - boot.estimate) * (boot.high - boot.estimate) + extra).squareRoot()
            let limit = aggregateThreshold ?? baseline.thresholds.solvers?[first.solver]?.aggregate
                ?? baseline.thresholds.aggregate ?? Baseline.Thresholds.defaultAggregate
            let kind = decide(boot.estimate, low: low, high: high, threshold: limit)
            let geometric = { (values: [Double]) in Foundation.exp(values.map { Foundation.log($0) }.reduce(0, +) / Double(values.count)) }
            findings.append(GateFinding(kind: kind, metric: "time/\(first.phase), all cases", subject: "\(first.solver) (\(members.count) cases)",
                                        baseline: formatSeconds(geometric(members.map(\.before.median))) + " gm",
                                        current: formatSeconds(geometric(members.map { $0.before.median * Foundation.exp($0.logRatio) })) + " gm",
                                        change: Foundation.exp(boot.estimate) - 1,
                                        interval: Interval(estimate: Foundation.exp(boot.estimate) - 1, low: Foundation.exp(low) - 1,
                                                           high: Foundation.exp(high) - 1),
                                        threshold: limit))
        }

        return GateReport(findings: inReportOrder(findings), drift: drift, driftCorrected: corrected, confidence: level, baselineRuns: runs)
    }

    // MARK: Rules shared by both gates (a stored baseline, ``PairedGate``)

    /// Findings in the order reports list them: regressions, new, missing,
    /// improvements, noise; the order found within each kind.
    static func inReportOrder(_ findings: [GateFinding]) -> [GateFinding] {
        let order: [GateFinding.Kind] = [.regression, .new, .missing, .acknowledged, .improvement, .noise]
        return findings.enumerated().sorted {
            let a = order.firstIndex(of: $0.element.kind) ?? 9, b = order.firstIndex(of: $1.element.kind) ?? 9
            return a != b ? a < b : $0.offset < $1.offset
        }.map(\.element)
    }

    /// The solvers a results file ran (its list, and any named in a verdict).
    static func solvers(of results: ResultsDocument) -> Set<String> {
        Set(results.cases.flatMap { $0.results.map(\.solver) } + results.solvers.map(\.name))
    }

    /// A solver the base had and `now` lacks: its coverage is lost (a run
    /// without the external solvers would otherwise pass), so a regression
    /// unless missing ones are allowed.
    static func missingSolvers(base: Set<String>, now: Set<String>, allowMissing: Bool) -> [GateFinding] {
        base.subtracting(now).sorted().map {
            GateFinding(kind: allowMissing ? .missing : .regression, metric: "solver missing", subject: $0,
                        baseline: "present", current: "-", change: nil)
        }
    }

    /// A verdict that changed: one that became a failure regresses, one that stopped being one improves.
    static func verdictFinding(_ subject: String, was: Verdict, now: Verdict) -> GateFinding {
        let worse = !was.isFailure && now.isFailure
        let better = was.isFailure && !now.isFailure
        return GateFinding(kind: worse ? .regression : better ? .improvement : .noise, metric: "verdict",
                           subject: subject, baseline: was.rawValue, current: now.rawValue, change: nil)
    }

    /// A counter that moved from `old` (the nearest end of what unchanged code
    /// showed): exact, or for allocation counts within the allocation
    /// tolerance and slack; the case's glob threshold applies.
    static func counterFinding(_ subject: String, counter: Counter, value: Double, old: Double, baseline: String,
                               caseName: String, thresholds: Baseline.Thresholds) -> GateFinding {
        var counterThreshold = thresholds.counter
        for (pattern, t) in (thresholds.cases ?? [:]).sorted(by: { $0.key < $1.key }) where Glob.matches(caseName, pattern) {
            if let counter = t.counter { counterThreshold = counter }
        }
        let change = old == 0 ? (value > 0 ? 1 : 0) : value / old - 1
        let isAllocation = counter.isAllocationCount
        let tolerance = isAllocation
            ? max(counterThreshold, thresholds.allocations ?? Baseline.Thresholds.defaultAllocations) : counterThreshold
        let slack = isAllocation && abs(value - old) <= Baseline.Thresholds.allocationSlack
        let kind: GateFinding.Kind = abs(change) <= tolerance || slack ? .noise : change > 0 ? .regression : .improvement
        return GateFinding(kind: kind, metric: counter.rawValue, subject: subject, baseline: baseline,
                           current: String(format: "%g", value), change: change)
    }

    /// Regression: the interval is above 0 and the change beyond the
    /// threshold; improvement: the mirror image; else noise. Log units.
    static func decide(_ estimate: Double, low: Double, high: Double, threshold: Double) -> GateFinding.Kind {
        let limit = Foundation.log(1 + max(0, threshold))
        if low > 0 && estimate > limit { return .regression }
        if high < 0 && estimate < -limit { return .improvement }
        return .noise
    }

    /// The exit outcome: regressions (or cases missing from the baseline,
    /// unless lenient) -> 2; only improvements -> 4; else 0.
    public static func outcome(_ findings: [GateFinding], lenient: Bool) -> Outcome {
        if findings.contains(where: { $0.kind == .regression || (!lenient && $0.kind == .new) }) { return .regression }
        if findings.contains(where: { $0.kind == .improvement }) { return .improvementsOnly }
        return .pass
    }
}
