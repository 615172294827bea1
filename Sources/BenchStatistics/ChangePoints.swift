import Foundation

/// Steps in a series of measurements over commits (a benchmark's history),
/// by binary segmentation with a penalty, as asv and wpt.fyi-style
/// dashboards mark them.
///
/// The model: the series is piecewise constant plus noise. A segment's cost is
/// the sum of squared deviations from its mean. Binary segmentation splits
/// the segment whose best split lowers the cost most, and accepts a split only
/// if it lowers the cost by more than the penalty `2 · sigma² · ln n` (the
/// BIC-style penalty for one more parameter), with sigma estimated robustly
/// from the series itself: the median absolute difference between
/// neighbours / (0.6745 · sqrt 2), which a few steps do not inflate. Splits
/// closer than `minimumSegment` points to an end or another split are not
/// considered. Why this method: it is simple, deterministic, needs no prior
/// on the number of steps, and its one assumption (noise of one size) is what
/// log times of one benchmark on one machine show.
public enum ChangePoints {
    /// One step: the series' values from `index` on belong to a new segment.
    public struct Step: Sendable, Equatable {
        /// The first index after the step.
        public var index: Int
        /// The mean of the segment before and after it.
        public var before: Double
        public var after: Double
    }

    /// The steps of `values`, in index order.
    /// - Parameters:
    ///   - minimumSegment: the fewest points a segment may have.
    ///   - penaltyFactor: multiplies the penalty (1 = as described).
    /// - Complexity: O(n · s) for s steps found (prefix sums make each segment's best split O(length)).
    public static func detect(_ values: [Double], minimumSegment: Int = 2, penaltyFactor: Double = 1) -> [Step] {
        let n = values.count
        let minimum = max(1, minimumSegment)
        guard n >= 2 * minimum else { return [] }
        var prefix = [0.0], prefixSquares = [0.0]
        for v in values {
            prefix.append(prefix[prefix.count - 1] + v)
            prefixSquares.append(prefixSquares[prefixSquares.count - 1] + v * v)
        }
        func cost(_ a: Int, _ b: Int) -> Double {  // [a, b)
            let count = Double(b - a)
            guard count > 0 else { return 0 }
            let sum = prefix[b] - prefix[a]
            return max(0, prefixSquares[b] - prefixSquares[a] - sum * sum / count)
        }
        let differences = (1..<n).map { abs(values[$0] - values[$0 - 1]) }.sorted()
        let mad = differences.isEmpty ? 0 : TimingSummary.median(sorted: differences)
        var sigma = mad / (0.6745 * 2.0.squareRoot())
        // A perfectly flat stretch would make any difference look certain.
        let scale = values.map(abs).max() ?? 0
        sigma = max(sigma, 1e-9 * max(1, scale))
        let penalty = penaltyFactor * 2 * sigma * sigma * Foundation.log(Double(n))

        var cuts: [Int] = []
        var segments = [(0, n)]
        while true {
            var best: (gain: Double, cut: Int, segment: Int)?
            for (s, (a, b)) in segments.enumerated() where b - a >= 2 * minimum {
                let whole = cost(a, b)
                for c in (a + minimum)...(b - minimum) {
                    let gain = whole - cost(a, c) - cost(c, b)
                    if gain > (best?.gain ?? 0) { best = (gain, c, s) }
                }
            }
            guard let chosen = best, chosen.gain > penalty else { break }
            let (a, b) = segments[chosen.segment]
            segments.replaceSubrange(chosen.segment...chosen.segment, with: [(a, chosen.cut), (chosen.cut, b)])
            cuts.append(chosen.cut)
        }
        cuts.sort()
        let bounds = [0] + cuts + [n]
        func mean(_ a: Int, _ b: Int) -> Double { (prefix[b] - prefix[a]) / Double(b - a) }
        return cuts.enumerated().map { i, cut in
            Step(index: cut, before: mean(bounds[i], cut), after: mean(cut, bounds[i + 2]))
        }
    }
}
