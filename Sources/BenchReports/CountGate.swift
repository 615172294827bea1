// The instruction-count gate (`gate --counts`): deterministic totals of a
// fixed workload (callgrind) against a stored set, a relative threshold,
// and the gates' one exit rule (0, 2, 4).

import Foundation

extension Gate {
    /// Counts (e.g. instructions per workload) against stored ones: a count
    /// above `1 + threshold` times its baseline regresses, below `1 - threshold`
    /// improves; a workload the baseline lacks is new (a regression unless
    /// lenient: record it with the baseline), one the counts lack is missing.
    /// Exact counts have no noise to estimate, so no interval.
    /// - Complexity: O(workloads × log workloads).
    public static func compareCounts(_ current: [String: Double], with baseline: [String: Double], threshold: Double) -> GateReport {
        var findings: [GateFinding] = []
        for name in current.keys.sorted() {
            let now = current[name] ?? 0
            guard let old = baseline[name] else {
                findings.append(GateFinding(kind: .new, metric: "count", subject: name, baseline: "-",
                                            current: String(format: "%.0f", now), change: nil))
                continue
            }
            let change = old == 0 ? (now > 0 ? 1 : 0) : now / old - 1
            let kind: GateFinding.Kind = change > threshold ? .regression : change < -threshold ? .improvement : .noise
            findings.append(GateFinding(kind: kind, metric: "count", subject: name, baseline: String(format: "%.0f", old),
                                        current: String(format: "%.0f", now), change: change, threshold: threshold))
        }
        for name in baseline.keys.sorted() where current[name] == nil {
            findings.append(GateFinding(kind: .missing, metric: "count", subject: name,
                                        baseline: String(format: "%.0f", baseline[name] ?? 0), current: "-", change: nil))
        }
        return GateReport(findings: inReportOrder(findings), confidence: 1, baselineRuns: 1)
    }
}
