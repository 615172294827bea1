// The rules both gates share (a stored baseline, ``PairedGate``): how a
// verdict, a counter or an interval becomes a finding, the order reports list
// findings in, and the exit outcome (0, 2, 4) they add up to.

import BenchMetrics
import BenchSchema
import Foundation

extension Gate {
    public enum Outcome: Int32, Sendable {
        /// Nothing regressed.
        case pass = 0
        case regression = 2
        /// Only improvements: the baseline is stale.
        case improvementsOnly = 4
    }

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
