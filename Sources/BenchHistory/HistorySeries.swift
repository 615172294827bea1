import BenchStatistics
import Foundation

/// A time series of one solver's phase (or one case of it) over the recorded
/// runs, in the dashboard's order, with its steps.
public struct HistorySeries: Sendable {
    public struct Point: Sendable, Equatable {
        /// The run's position in ``HistoryStore/runs()``.
        public var index: Int
        public var run: HistoryStore.RunInfo
        /// Seconds: a case's median, or the geometric mean over the cases.
        public var value: Double
        public var low: Double
        public var high: Double
    }

    /// A step of the series, with the runs on either side.
    public struct Step: Sendable, Equatable {
        /// The last run before the step and the first after it.
        public var before: HistoryStore.RunInfo
        public var after: HistoryStore.RunInfo
        /// The series' level (seconds, geometric) before and after.
        public var levelBefore: Double
        public var levelAfter: Double
        /// after / before - 1.
        public var change: Double { levelAfter / levelBefore - 1 }
    }

    public var solver: String
    public var phase: String
    /// Nil for the geometric mean over cases.
    public var caseName: String?
    /// How many cases the geometric mean is over (1 for a case).
    public var cases: Int
    public var points: [Point]
    public var steps: [Step]

    /// The series of `solver`/`phase` from `timings` (of that solver and
    /// phase) over `runs`: per run, the geometric mean over the cases that
    /// every run of the series has (so a run with more cases does not look
    /// slower), or a case's own median when `caseName` is given. Steps come
    /// from ``ChangePoints`` on the log values.
    /// - Complexity: O(P + R · C) for P timings, R runs and C common cases, plus the change-point search.
    public static func make(solver: String, phase: String, caseName: String? = nil, runs: [HistoryStore.RunInfo],
                            timings: [HistoryStore.Point]) -> HistorySeries {
        let order = Dictionary(runs.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var byRun: [Int64: [String: HistoryStore.Point]] = [:]
        for t in timings where t.solver == solver && t.phase == phase && (caseName == nil || t.caseName == caseName) && t.median > 0 {
            byRun[t.run, default: [:]][t.caseName] = t
        }
        var common: Set<String>?
        for (_, cases) in byRun { common = common.map { $0.intersection(cases.keys) } ?? Set(cases.keys) }
        let chosen = common ?? []
        var points: [Point] = []
        for (runID, cases) in byRun {
            guard let index = order[runID] else { continue }
            let members = chosen.isEmpty ? Array(cases.values) : chosen.compactMap { cases[$0] }
            guard !members.isEmpty else { continue }
            func geometric(_ values: [Double]) -> Double { Foundation.exp(values.map { Foundation.log($0) }.reduce(0, +) / Double(values.count)) }
            let value = geometric(members.map(\.median))
            points.append(Point(index: index, run: runs[index], value: value,
                                low: geometric(members.map { $0.low ?? $0.median }), high: geometric(members.map { $0.high ?? $0.median })))
        }
        points.sort { $0.index < $1.index }
        let found = ChangePoints.detect(points.map { Foundation.log($0.value) })
        let steps = found.map { s in
            Step(before: points[s.index - 1].run, after: points[s.index].run,
                 levelBefore: Foundation.exp(s.before), levelAfter: Foundation.exp(s.after))
        }
        return HistorySeries(solver: solver, phase: phase, caseName: caseName, cases: chosen.isEmpty ? 1 : chosen.count,
                             points: points, steps: steps)
    }
}
