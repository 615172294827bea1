// The comparison of a run with a stored baseline: each timing's interval (the
// run's, the baseline's, the machine drift's and the between-run parts), each
// solver's phase over all cases, and the exact metrics, as findings.

import BenchMetrics
import BenchSchema
import BenchStatistics
import Foundation

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
    /// The between-run standard deviation (log units) assumed for a baseline
    /// of one run: about the 90th percentile of what five runs of unchanged
    /// code showed per case (docs/design/gates.md).
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
            findings += verdictFindings(c, before: before)
            findings += counterFindings(c, before: before, thresholds: baseline.thresholds)
            comparisons += timingComparisons(c, before: before, results: results, baseline: baseline)
        }
        for name in baseline.cases.keys.sorted() where !currentNames.contains(name) {
            findings.append(GateFinding(kind: .missing, metric: "case", subject: name, baseline: "present", current: "-", change: nil))
        }

        let levels = SignificanceLevels(level: level, comparisons: comparisons)
        for k in comparisons.indices {
            comparisons[k].nowHalfWidth = halfWidth(samples: comparisons[k].paired ?? comparisons[k].now.samples ?? [], level: levels.caseLevel)
        }
        let drift = driftCorrection(results, baseline: baseline, level: level, zBaseline: levels.zBaseline, comparisons: &comparisons)
        // Grouped after the drift correction (the groups hold copies).
        let groups = Dictionary(grouping: comparisons) { "\($0.solver)/\($0.phase)" }
        let variation = betweenRunVariation(groups, baselineRuns: baseline.runs)
        findings += timingFindings(comparisons, baseline: baseline, threshold: threshold, levels: levels, drift: drift,
                                   variation: variation)
        findings += aggregateFindings(groups, baseline: baseline, aggregateThreshold: aggregateThreshold, levels: levels,
                                      drift: drift, variation: variation)

        return GateReport(findings: inReportOrder(findings), drift: drift.interval, driftCorrected: drift.corrected, confidence: level,
                          baselineRuns: variation.runs)
    }

    // MARK: The steps of compare

    /// Verdicts of one case: exact.
    private static func verdictFindings(_ c: ResultsDocument.Case, before: Baseline.CaseEntry) -> [GateFinding] {
        var findings: [GateFinding] = []
        var verdicts: [VariantSolver: Verdict] = [:]
        for r in c.results { verdicts[VariantSolver(r.variant, r.solver)] = r.verdict }
        for (key, verdict) in verdicts.sorted(by: { $0.key < $1.key }) {
            guard let old = before.verdicts[key], old != verdict else { continue }
            findings.append(verdictFinding("\(c.name) \(key)", was: old, now: verdict))
        }
        return findings
    }

    /// Counters of one case: exact or near-exact.
    private static func counterFindings(_ c: ResultsDocument.Case, before: Baseline.CaseEntry,
                                        thresholds: Baseline.Thresholds) -> [GateFinding] {
        var findings: [GateFinding] = []
        for (solver, counters) in c.counters.sorted(by: { $0.key < $1.key }) {
            for (counter, value) in counters.sorted(by: { $0.key < $1.key }) {
                guard var old = before.counters[solver]?[counter], old != value else { continue }
                // Within the baseline runs' own range: as seen from unchanged code.
                if let range = before.counterRanges?[solver]?[counter], range.count == 2 {
                    if value >= range[0] && value <= range[1] { continue }
                    old = value < range[0] ? range[0] : range[1]
                }
                findings.append(counterFinding("\(c.name) \(solver)", counter: counter, value: value, old: old,
                                               baseline: String(format: "%g", old), caseName: c.name, thresholds: thresholds))
            }
        }
        return findings
    }

    /// The timings of one case that the baseline has too, each with its log
    /// ratio (its interval comes later, at the per-comparison level).
    private static func timingComparisons(_ c: ResultsDocument.Case, before: Baseline.CaseEntry, results: ResultsDocument,
                                          baseline: Baseline) -> [Comparison] {
        var comparisons: [Comparison] = []
        for t in c.timings {
            guard let old = before.times[SolverPhase(t.solver, t.phase)], old.median > 0, t.median > 0 else { continue }
            let pairedValues = baseline.yardstick.flatMap { paired(t, results.yardstick, scale: $0.median) }
            // Paired: already at the baseline's machine speed. Raw: drift-corrected below.
            let median = pairedValues.map { TimingSummary.median(sorted: $0.sorted()) } ?? t.median
            comparisons.append(Comparison(caseName: c.name, solver: t.solver, phase: t.phase, now: t, before: old,
                                          logRatio: Foundation.log(median / old.median), nowHalfWidth: 0, paired: pairedValues))
        }
        return comparisons
    }

    /// The confidence levels of the comparisons and their normal quantiles.
    ///
    /// Why Bonferroni: a run makes about 150 comparisons, and each at 99%
    /// gives one false alarm in every few runs (measured on synthetic runs:
    /// 3 in 100). The level is family-wise: each comparison of a family (the
    /// cases' timings; the solvers' means) is held at 1 - (1 - level) / K,
    /// so that with probability `level` none of the K is a false alarm.
    private struct SignificanceLevels {
        /// The level of one case's timing.
        var caseLevel: Double
        /// The level of one solver's phase over all cases.
        var aggregateLevel: Double
        var z: Double
        var zAggregate: Double
        /// At the plain level, the baseline's own.
        var zBaseline: Double

        init(level: Double, comparisons: [Comparison]) {
            let aggregateCount = Dictionary(grouping: comparisons) { "\($0.solver)/\($0.phase)" }.values
                .filter { $0.count >= minimumAggregateCases }.count
            caseLevel = 1 - (1 - level) / Double(max(1, comparisons.count))
            aggregateLevel = 1 - (1 - level) / Double(max(1, aggregateCount))
            z = Confidence.z(caseLevel)
            zAggregate = Confidence.z(aggregateLevel)
            zBaseline = Confidence.z(level)
        }
    }

    /// Machine drift: the run's yardstick against the baseline's.
    private struct DriftCorrection {
        /// now / baseline - 1 of the yardstick, with its interval.
        var interval: Interval?
        var corrected: Bool
        /// The shared term of every unpaired timing's interval (0 when every timing is paired).
        var halfWidth: Double
        /// |log drift|: how large a correction was made (``driftUncertainty``).
        var shift: Double
    }

    /// Measures the machine drift and divides it out of every time, as the
    /// baseline's runs were: unpaired timings by the shift here, paired ones
    /// were corrected round by round already.
    private static func driftCorrection(_ results: ResultsDocument, baseline: Baseline, level: Double, zBaseline: Double,
                                        comparisons: inout [Comparison]) -> DriftCorrection {
        var drift: Interval?
        var corrected = false
        var driftHalfWidth = 0.0
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
        return DriftCorrection(interval: drift, corrected: corrected, halfWidth: driftHalfWidth, shift: driftShift)
    }

    /// Between-run variation per solver and phase, from the baseline's runs.
    private struct BetweenRunVariation {
        /// How many runs the baseline was made from (at least 1).
        var runs: Int
        /// Per solver and phase, the median over its cases of each case's spread between runs.
        var pooled: [String: Double] = [:]
        /// Per solver and phase, how much a whole run moves at once.
        var commonMode: [String: Double] = [:]

        /// One timing's between-run standard deviation (log units): its own
        /// or its family's, the larger; the prior without either.
        func betweenRun(_ m: Comparison) -> Double {
            let key = "\(m.solver)/\(m.phase)"
            guard m.before.runs.count >= 2 else { return pooled[key] ?? priorBetweenRun }
            return max(standardDeviation(m.before.runs.map { Foundation.log($0) }), pooled[key] ?? 0)
        }
    }

    /// The between-run variation of each group of comparisons (a solver's phase).
    private static func betweenRunVariation(_ groups: [String: [Comparison]], baselineRuns: Int) -> BetweenRunVariation {
        let runs = max(1, baselineRuns)
        var variation = BetweenRunVariation(runs: runs)
        for (key, members) in groups {
            let sds = members.filter { $0.before.runs.count >= 2 }.map { m in standardDeviation(m.before.runs.map { Foundation.log($0) }) }
            if !sds.isEmpty { variation.pooled[key] = TimingSummary.median(sorted: sds.sorted()) }
            // Each baseline run's mean deviation from the centre over the cases
            // that have every run: how much a whole run moves at once.
            let complete = members.filter { $0.before.runs.count == runs }
            if runs >= 3, complete.count >= minimumAggregateCases {
                let means = (0..<runs).map { r in
                    complete.map { Foundation.log($0.before.runs[r] / $0.before.median) }.reduce(0, +) / Double(complete.count)
                }
                variation.commonMode[key] = standardDeviation(means)
            }
        }
        return variation
    }

    /// One case's time threshold: the solver's or the baseline's, then the
    /// last matching case glob's, then the override when given.
    private static func timeThreshold(_ m: Comparison, thresholds: Baseline.Thresholds, override threshold: Double?) -> Double {
        var limit = thresholds.solvers?[m.solver]?.time ?? thresholds.time
        for (pattern, t) in (thresholds.cases ?? [:]).sorted(by: { $0.key < $1.key }) where Glob.matches(m.caseName, pattern) {
            if let time = t.time { limit = time }
        }
        if let threshold { limit = threshold }
        return limit
    }

    /// Each timing, in case, solver and phase order.
    private static func timingFindings(_ comparisons: [Comparison], baseline: Baseline, threshold: Double?, levels: SignificanceLevels,
                                       drift: DriftCorrection, variation: BetweenRunVariation) -> [GateFinding] {
        let z = levels.z, zBaseline = levels.zBaseline, runs = variation.runs
        let driftHalfWidth = drift.halfWidth, driftShift = drift.shift
        var findings: [GateFinding] = []
        for m in comparisons.sorted(by: { ($0.caseName, $0.solver, $0.phase.rawValue) < ($1.caseName, $1.solver, $1.phase.rawValue) }) {
            let limit = timeThreshold(m, thresholds: baseline.thresholds, override: threshold)
            let r = Double(m.before.runs.count == 0 ? runs : m.before.runs.count)
            let s = variation.betweenRun(m)
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
        return findings
    }

    /// Each solver's phase over all cases, in solver and phase order.
    private static func aggregateFindings(_ groups: [String: [Comparison]], baseline: Baseline, aggregateThreshold: Double?,
                                          levels: SignificanceLevels, drift: DriftCorrection,
                                          variation: BetweenRunVariation) -> [GateFinding] {
        let zAggregate = levels.zAggregate, runs = variation.runs
        let driftHalfWidth = drift.halfWidth, driftShift = drift.shift
        var findings: [GateFinding] = []
        for key in groups.keys.sorted() {
            guard let members = groups[key], members.count >= minimumAggregateCases,
                  let first = members.first,
                  let boot = Bootstrap.mean(members.map(\.logRatio), level: levels.aggregateLevel, resamples: 20_000) else { continue }
            let common = variation.commonMode[key] ?? priorCommonMode
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
        return findings
    }
}
