import Foundation

/// Steps in a series of measurements over commits (a benchmark's history),
/// by binary segmentation with a penalty, as asv-style dashboards mark them.
///
/// The model: the series is piecewise constant plus noise. A segment's cost is
/// the sum of absolute deviations from its median (L1, as asv's step
/// detection uses: benchmark noise has outliers, and with squared deviations
/// one slow process became a step of its own). Binary segmentation splits the
/// segment whose best split lowers the cost most, and accepts a split only if
/// it lowers the cost by more than the penalty `penaltyFactor · sigma · ln n`,
/// with sigma estimated robustly from the series itself (the median absolute
/// difference between neighbours / (0.6745 · sqrt 2), which a few steps do not
/// inflate), and only if the step moves the level by at least
/// `minimumChange` (in the series' units: log times, so 0.05 is about 5%):
/// a dashboard that marks every 1% wiggle of a shared machine is not read.
/// Segments have at least `minimumSegment` points. Deterministic: the same
/// series gives the same steps.
public enum ChangePoints {
    /// One step: the series' values from `index` on belong to a new segment.
    public struct Step: Sendable, Equatable {
        /// The first index after the step.
        public var index: Int
        /// The median of the segment before and after it.
        public var before: Double
        public var after: Double
    }

    /// The steps of `values`, in index order.
    /// - Complexity: O(s · n² log n) for s steps found (each candidate split's cost is computed afresh; histories are hundreds of points).
    public static func detect(_ values: [Double], minimumSegment: Int = 3, penaltyFactor: Double = 3,
                              minimumChange: Double = 0.05) -> [Step] {
        let n = values.count
        let minimum = max(1, minimumSegment)
        guard n >= 2 * minimum else { return [] }
        func median(_ a: Int, _ b: Int) -> Double { TimingSummary.median(sorted: values[a..<b].sorted()) }
        func cost(_ a: Int, _ b: Int) -> Double {  // [a, b)
            guard b > a else { return 0 }
            let m = median(a, b)
            return values[a..<b].reduce(0) { $0 + abs($1 - m) }
        }
        let differences = (1..<n).map { abs(values[$0] - values[$0 - 1]) }.sorted()
        var sigma = TimingSummary.median(sorted: differences) / (0.6745 * 2.0.squareRoot())
        // A perfectly flat stretch would make any difference look certain.
        let scale = values.map(abs).max() ?? 0
        sigma = max(sigma, 1e-9 * max(1, scale))
        let penalty = penaltyFactor * sigma * Foundation.log(Double(n))

        var cuts: [Int] = []
        var segments = [(0, n)]
        var settled = Set<Int>()  // segments (by start) with no acceptable split
        while true {
            var best: (gain: Double, cut: Int, segment: Int)?
            for (s, (a, b)) in segments.enumerated() where b - a >= 2 * minimum && !settled.contains(a) {
                let whole = cost(a, b)
                var local: (gain: Double, cut: Int)?
                for c in (a + minimum)...(b - minimum) where abs(median(c, b) - median(a, c)) >= minimumChange {
                    let gain = whole - cost(a, c) - cost(c, b)
                    if gain > (local?.gain ?? 0) { local = (gain, c) }
                }
                guard let local, local.gain > penalty else { settled.insert(a); continue }
                if local.gain > (best?.gain ?? 0) { best = (local.gain, local.cut, s) }
            }
            guard let chosen = best else { break }
            let (a, b) = segments[chosen.segment]
            segments.replaceSubrange(chosen.segment...chosen.segment, with: [(a, chosen.cut), (chosen.cut, b)])
            settled.remove(a)
            cuts.append(chosen.cut)
        }
        cuts.sort()
        let bounds = [0] + cuts + [n]
        return cuts.enumerated().map { i, cut in
            Step(index: cut, before: median(bounds[i], cut), after: median(cut, bounds[i + 2]))
        }
    }
}
