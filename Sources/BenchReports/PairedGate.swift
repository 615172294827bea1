import BenchMetrics
import BenchSchema
import BenchStatistics
import Foundation

/// The same-machine A/B gate: a base binary and a head binary timed in
/// alternating processes on one machine, compared round by round.
///
/// Why not a stored baseline: a baseline recorded on one machine fails
/// unchanged code on another (measured on a second machine of the same kind:
/// cassowary's micro-phases 15% slower relative to the yardstick, exit 2 in
/// every run), because a machine does not slow every workload alike and no
/// yardstick divides that out. Measured side by side, both binaries see the
/// same machine, load and thermal state; what differs is the code.
///
/// **Rounds.** Round r is one process of each binary, back to back, in ABBA
/// order (A B, B A, A B, ...), so a drift that is linear in time over a pair
/// of rounds cancels in their mean. Each process runs the whole timing pass.
///
/// **Per case** (case x solver x phase): d_r = log(head median / base median)
/// in round r. The estimate is the median of the d_r (one disturbed round of
/// six cannot move it); its interval is
/// `t * 1.2533 * s / sqrt(R)` where s is the larger of the case's own
/// between-round spread (robust: 1.4826 · MAD) and the median of those of its family
/// (the same solver and phase over every case), t the Student quantile with
/// R - 1 degrees of freedom at the per-comparison level, and 1.2533 the
/// median's efficiency factor (sqrt(pi/2)) against a mean.
///
/// **Per solver and phase over all cases**: the estimate is the mean over the
/// cases of their estimates (the log of the geometric mean of the ratios).
/// Its uncertainty is the round-to-round movement of the whole run: per round
/// the mean over cases of d_rc minus the case's estimate, whose robust spread
/// over rounds (t with R - 1 degrees of freedom) covers a process that was
/// slower as a whole; the cases' own spreads add the rest.
///
/// **Decision** as for a stored baseline (``Gate/decide``): a regression is
/// significant at the family-wise confidence (Bonferroni over the
/// comparisons of a family) and beyond the threshold (25% per case, 10% for a
/// solver over all cases; the reference solver 100% and 30%, as baselines
/// store it). Verdicts compare exactly; counters exactly; allocation counts
/// beyond the range that the base's own rounds show, with the same tolerance
/// as a stored baseline.
public enum PairedGate {
    /// One round: a process of each binary, results as `run` wrote them.
    public struct Round: Sendable {
        public var base: ResultsDocument
        public var head: ResultsDocument

        public init(base: ResultsDocument, head: ResultsDocument) {
            self.base = base
            self.head = head
        }
    }

    /// The median's standard error over the mean's, for normal data.
    static let medianEfficiency = (Double.pi / 2).squareRoot()
    /// The least between-round spread assumed (log units): with few rounds a
    /// spread can come out near zero by chance, and a 0.1% difference would
    /// then look certain.
    static let minimumSpread = 0.005

    /// Every comparison of the rounds.
    /// - Parameters:
    ///   - thresholds: per-case and aggregate thresholds, confidence, tolerances (a baseline's, or the defaults).
    ///   - threshold, aggregateThreshold: override them when given.
    ///   - allowMissing: a case or solver the base has and the head lacks is reported, not a regression.
    /// - Returns: nil for no rounds.
    /// - Complexity: O(R · T log R) for R rounds of T timings.
    public static func compare(_ rounds: [Round], thresholds: Baseline.Thresholds = Baseline.Thresholds(),
                               threshold: Double? = nil, aggregateThreshold: Double? = nil,
                               allowMissing: Bool = false) -> GateReport? {
        guard let first = rounds.first else { return nil }
        let level = thresholds.confidence ?? Baseline.Thresholds.defaultConfidence
        var findings: [GateFinding] = []
        let reference = first.base.referenceName ?? first.head.referenceName

        let headCases = casesByName(first.head), baseCases = casesByName(first.base)
        findings += presenceFindings(first, baseCases: baseCases, headCases: headCases, allowMissing: allowMissing)
        // Exact metrics.
        for name in baseCases.keys.sorted() {
            guard let before = baseCases[name], let now = headCases[name] else { continue }
            findings += verdictFindings(name, before: before, now: now)
            findings += counterFindings(name, rounds: rounds, thresholds: thresholds)
        }

        let times = RoundTimes(rounds)
        let r = Double(rounds.count)
        let degrees = max(1, r - 1)
        let caseLevel = 1 - (1 - level) / Double(max(1, times.ratios.count))
        let aggregateCount = times.families.values.filter { $0.count >= Gate.minimumAggregateCases }.count
        let aggregateLevel = 1 - (1 - level) / Double(max(1, aggregateCount))
        let tCase = Confidence.t(caseLevel, degreesOfFreedom: degrees)
        let tAggregate = Confidence.t(aggregateLevel, degreesOfFreedom: degrees)
        findings += caseTimeFindings(times, t: tCase, thresholds: thresholds, threshold: threshold, reference: reference)
        findings += familyTimeFindings(times, t: tAggregate, thresholds: thresholds, aggregateThreshold: aggregateThreshold,
                                       reference: reference)

        return GateReport(findings: Gate.inReportOrder(findings), drift: nil, driftCorrected: false, confidence: level,
                          baselineRuns: rounds.count)
    }

    // MARK: The steps of compare

    /// A solver's thresholds: the given ones, else the reference's default.
    private static func solverThresholds(_ solver: String, thresholds: Baseline.Thresholds,
                                         reference: String?) -> Baseline.SolverThresholds? {
        thresholds.solvers?[solver] ?? (solver == reference ? Baseline.Thresholds.reference : nil)
    }

    /// A document's cases by name (the first of a repeated name).
    private static func casesByName(_ document: ResultsDocument) -> [String: ResultsDocument.Case] {
        Dictionary(document.cases.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// What is present: solvers and cases of the base missing from the head,
    /// and those the head adds.
    private static func presenceFindings(_ first: Round, baseCases: [String: ResultsDocument.Case],
                                         headCases: [String: ResultsDocument.Case], allowMissing: Bool) -> [GateFinding] {
        var findings: [GateFinding] = []
        let baseSolvers = Gate.solvers(of: first.base), headSolvers = Gate.solvers(of: first.head)
        findings += Gate.missingSolvers(base: baseSolvers, now: headSolvers, allowMissing: allowMissing)
        for solver in headSolvers.subtracting(baseSolvers).sorted() {
            findings.append(GateFinding(kind: .new, metric: "solver", subject: solver, baseline: "-", current: "present", change: nil))
        }
        for name in baseCases.keys.sorted() where headCases[name] == nil {
            findings.append(GateFinding(kind: allowMissing ? .missing : .regression, metric: "case missing", subject: name,
                                        baseline: "present", current: "-", change: nil))
        }
        for name in headCases.keys.sorted() where baseCases[name] == nil {
            findings.append(GateFinding(kind: .new, metric: "case", subject: name, baseline: "-", current: "present", change: nil))
        }
        return findings
    }

    /// One timing: a case, a solver and a phase.
    private struct Key: Hashable, Comparable {
        var caseName: String, solver: String, phase: Phase
        static func < (a: Key, b: Key) -> Bool { (a.caseName, a.solver, a.phase.rawValue) < (b.caseName, b.solver, b.phase.rawValue) }
    }

    /// One round's median of each timing, per binary.
    private typealias RoundMedians = (base: [Key: Double], head: [Key: Double])

    /// Times: the log ratio of each round, for the timings every process has,
    /// with each timing's estimate and spread, and their families (a solver's
    /// phase over every case).
    private struct RoundTimes {
        var perRound: [RoundMedians]
        var ratios: [Key: [Double]]
        var estimates: [Key: Double]
        var spreads: [Key: Double]
        var families: [String: [Key]]
        var familySpread: [String: Double]

        init(_ rounds: [Round]) {
            func medians(_ document: ResultsDocument) -> [Key: Double] {
                var out: [Key: Double] = [:]
                for c in document.cases { for t in c.timings where t.median > 0 { out[Key(caseName: c.name, solver: t.solver, phase: t.phase)] = t.median } }
                return out
            }
            let perRound = rounds.map { (base: medians($0.base), head: medians($0.head)) }
            var ratios: [Key: [Double]] = [:]
            for key in Set(perRound[0].base.keys).intersection(perRound[0].head.keys) {
                let values = perRound.compactMap { round -> Double? in
                    guard let a = round.base[key], let b = round.head[key] else { return nil }
                    return Foundation.log(b / a)
                }
                if values.count == rounds.count { ratios[key] = values }
            }
            self.perRound = perRound
            self.ratios = ratios
            estimates = ratios.mapValues { TimingSummary.median(sorted: $0.sorted()) }
            let spreads = ratios.mapValues { robustSpread($0) }
            self.spreads = spreads
            families = Dictionary(grouping: ratios.keys.sorted()) { "\($0.solver)/\($0.phase.rawValue)" }
            familySpread = families.mapValues { keys in TimingSummary.median(sorted: keys.compactMap { spreads[$0] }.sorted()) }
        }

        /// A timing's between-round spread: its own, its family's or the least assumed, the largest.
        func spread(_ key: Key) -> Double {
            max(spreads[key] ?? 0, familySpread["\(key.solver)/\(key.phase.rawValue)"] ?? 0, minimumSpread)
        }

        /// A timing's seconds on one side: the median over the rounds.
        func seconds(_ key: Key, _ side: KeyPath<RoundMedians, [Key: Double]>) -> Double {
            TimingSummary.median(sorted: perRound.compactMap { $0[keyPath: side][key] }.sorted())
        }
    }

    /// Each timing, in case, solver and phase order.
    private static func caseTimeFindings(_ times: RoundTimes, t tCase: Double, thresholds: Baseline.Thresholds, threshold: Double?,
                                         reference: String?) -> [GateFinding] {
        let r = Double(times.perRound.count)
        var findings: [GateFinding] = []
        for key in times.ratios.keys.sorted() {
            guard let estimate = times.estimates[key] else { continue }
            var limit = solverThresholds(key.solver, thresholds: thresholds, reference: reference)?.time ?? thresholds.time
            for (pattern, t) in (thresholds.cases ?? [:]).sorted(by: { $0.key < $1.key }) where Glob.matches(key.caseName, pattern) {
                if let time = t.time { limit = time }
            }
            if let threshold { limit = threshold }
            let half = tCase * medianEfficiency * times.spread(key) / r.squareRoot()
            let kind = Gate.decide(estimate, low: estimate - half, high: estimate + half, threshold: limit)
            findings.append(GateFinding(kind: kind, metric: "time/\(key.phase)", subject: "\(key.caseName) \(key.solver)",
                                        baseline: formatSeconds(times.seconds(key, \.base)), current: formatSeconds(times.seconds(key, \.head)),
                                        change: Foundation.exp(estimate) - 1,
                                        interval: interval(estimate, half), threshold: limit))
        }
        return findings
    }

    /// Each solver's phase over all cases, in solver and phase order.
    private static func familyTimeFindings(_ times: RoundTimes, t tAggregate: Double, thresholds: Baseline.Thresholds,
                                           aggregateThreshold: Double?, reference: String?) -> [GateFinding] {
        let r = Double(times.perRound.count)
        var findings: [GateFinding] = []
        for familyName in times.families.keys.sorted() {
            guard let keys = times.families[familyName], keys.count >= Gate.minimumAggregateCases, let firstKey = keys.first else { continue }
            let c = Double(keys.count)
            let estimate = keys.compactMap { times.estimates[$0] }.reduce(0, +) / c
            // Each round's shift of the whole family from the cases' estimates.
            let shifts = (0..<times.perRound.count).map { round in
                keys.map { key in (times.ratios[key]?[round] ?? 0) - (times.estimates[key] ?? 0) }.reduce(0, +) / c
            }
            let common = max(robustSpread(shifts), minimumSpread)
            let local = (keys.map { times.spread($0) * times.spread($0) }.reduce(0, +) / c).squareRoot()
            let half = tAggregate * medianEfficiency * ((common * common + local * local / c) / r).squareRoot()
            let limit = aggregateThreshold ?? solverThresholds(firstKey.solver, thresholds: thresholds, reference: reference)?.aggregate
                ?? thresholds.aggregate ?? Baseline.Thresholds.defaultAggregate
            let kind = Gate.decide(estimate, low: estimate - half, high: estimate + half, threshold: limit)
            let geometric = { (side: KeyPath<RoundMedians, [Key: Double]>) in
                Foundation.exp(keys.map { Foundation.log(times.seconds($0, side)) }.reduce(0, +) / c)
            }
            findings.append(GateFinding(kind: kind, metric: "time/\(firstKey.phase), all cases",
                                        subject: "\(firstKey.solver) (\(keys.count) cases)",
                                        baseline: formatSeconds(geometric(\.base)) + " gm",
                                        current: formatSeconds(geometric(\.head)) + " gm",
                                        change: Foundation.exp(estimate) - 1, interval: interval(estimate, half), threshold: limit))
        }
        return findings
    }

    /// The standard deviation as the median absolute deviation estimates it
    /// (1.4826 · MAD). Why robust: the estimates are medians over rounds, which
    /// one disturbed process barely moves (measured: with the test suite
    /// compiling beside the gate, one round's glpk times moved by 2x); a plain
    /// standard deviation let that one round widen the whole interval to
    /// [-96%, +1870%] and hide a 1.2x slowdown.
    static func robustSpread(_ values: [Double]) -> Double {
        guard values.count >= 2 else { return 0 }
        let centre = TimingSummary.median(sorted: values.sorted())
        return 1.4826 * TimingSummary.median(sorted: values.map { abs($0 - centre) }.sorted())
    }

    static func interval(_ estimate: Double, _ half: Double) -> Interval {
        Interval(estimate: Foundation.exp(estimate) - 1, low: Foundation.exp(estimate - half) - 1, high: Foundation.exp(estimate + half) - 1)
    }

    /// Verdicts, exactly: a verdict that became a failure regresses.
    static func verdictFindings(_ name: String, before: ResultsDocument.Case, now: ResultsDocument.Case) -> [GateFinding] {
        var old: [VariantSolver: Verdict] = [:]
        for r in before.results { old[VariantSolver(r.variant, r.solver)] = r.verdict }
        var findings: [GateFinding] = []
        for r in now.results.sorted(by: { VariantSolver($0.variant, $0.solver) < VariantSolver($1.variant, $1.solver) }) {
            guard let was = old[VariantSolver(r.variant, r.solver)], was != r.verdict else { continue }
            findings.append(Gate.verdictFinding("\(name) \(r.variant)/\(r.solver)", was: was, now: r.verdict))
        }
        return findings
    }

    /// Counters of one case: the head's first round against the range over the
    /// base's rounds (a count that moves between processes of unchanged code
    /// is compared with the nearest end of its range).
    static func counterFindings(_ name: String, rounds: [Round], thresholds: Baseline.Thresholds) -> [GateFinding] {
        func counters(_ document: ResultsDocument) -> [String: [Counter: Double]]? { document.cases.first { $0.name == name }?.counters }
        guard let now = counters(rounds[0].head) else { return [] }
        let base = rounds.compactMap { counters($0.base) }
        var findings: [GateFinding] = []
        for (solver, values) in now.sorted(by: { $0.key < $1.key }) {
            for (counter, value) in values.sorted(by: { $0.key < $1.key }) {
                let seen = base.compactMap { $0[solver]?[counter] }
                guard let low = seen.min(), let high = seen.max(), value < low || value > high else { continue }
                findings.append(Gate.counterFinding("\(name) \(solver)", counter: counter, value: value, old: value < low ? low : high,
                                                    baseline: low == high ? String(format: "%g", low) : String(format: "%g-%g", low, high),
                                                    caseName: name, thresholds: thresholds))
            }
        }
        return findings
    }
}
