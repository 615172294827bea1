import Foundation
import SeededRandom

/// Confidence intervals for timing statistics.
///
/// Why these and not a normal model: timings on shared machines are skewed
/// and have outliers (interference only adds time). The median's interval
/// comes from order statistics, which assume nothing about the distribution;
/// a mean over cases gets the percentile bootstrap, criterion style. Both are
/// deterministic (the bootstrap is seeded), so a gate's decision is a function
/// of its inputs and a re-rendered report says the same.
public struct Interval: Hashable, Sendable, Codable {
    public var estimate: Double
    public var low: Double
    public var high: Double

    public init(estimate: Double, low: Double, high: Double) {
        self.estimate = estimate
        self.low = low
        self.high = high
    }
}

public enum Confidence {
    /// The two-sided standard normal quantile: `z` with P(|Z| <= z) = `level`
    /// (2.576 for 0.99). By bisection on `erfc`, to 1e-12.
    /// - Complexity: O(1) (60 halvings).
    public static func z(_ level: Double) -> Double {
        let p = min(max(level, 1e-9), 1 - 1e-12)
        // P(|Z| <= z) = 1 - erfc(z / sqrt 2); increasing in z.
        var low = 0.0, high = 40.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if 1 - erfc(mid / 2.0.squareRoot()) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The interval of the median of `samples` at `level`: the order
    /// statistics whose ranks bound the median's rank with that probability
    /// (the sign-test interval, normal approximation of the binomial ranks).
    /// Exact in the sense that it assumes no distribution; with few samples it
    /// widens to the extremes.
    /// - Returns: nil for no samples.
    /// - Complexity: O(n log n).
    public static func median(_ samples: [Double], level: Double = 0.95) -> Interval? {
        guard !samples.isEmpty else { return nil }
        let s = samples.sorted()
        let n = Double(s.count)
        let half = z(level) * n.squareRoot() / 2
        let lowRank = Int((n / 2 - half).rounded(.down))  // 1-based rank; < 1 means the minimum
        let highRank = Int((n / 2 + 1 + half).rounded(.up))
        let low = s[max(0, min(s.count - 1, lowRank - 1))]
        let high = s[max(0, min(s.count - 1, highRank - 1))]
        return Interval(estimate: TimingSummary.median(sorted: s), low: low, high: high)
    }
}

public enum Bootstrap {
    /// Resamples per interval: 2,000 puts a 99% interval's ends on the 10th
    /// and 1,990th of them.
    public static let defaultResamples = 2_000

    /// The percentile-bootstrap interval of the mean of `values` (resampling
    /// the values with replacement).
    /// - Returns: nil for no values.
    /// - Complexity: O(B · n) for B resamples.
    public static func mean(_ values: [Double], level: Double = 0.99, resamples: Int = defaultResamples,
                            seed: UInt64 = 0x1a70_b3c5) -> Interval? {
        guard !values.isEmpty else { return nil }
        var generator = SplitMix(seed: seed)
        let n = values.count
        var means: [Double] = []
        means.reserveCapacity(resamples)
        // Why its own loop, not ``interval(count:level:resamples:seed:statistic:)``
        // with the mean as the statistic (the same draws, the same interval):
        // the gate's simulation tests run this loop millions of times in the
        // debug build, where the closure and its index array doubled their time.
        for _ in 0..<max(1, resamples) {
            var sum = 0.0
            for _ in 0..<n { sum += values[Int(generator.next() % UInt64(n))] }
            means.append(sum / Double(n))
        }
        means.sort()
        let (low, high) = percentileEnds(sorted: means, level: level)
        return Interval(estimate: values.reduce(0, +) / Double(n), low: low, high: high)
    }
}

extension Bootstrap {
    /// The percentile-bootstrap interval of any statistic of `count`
    /// paired observations, resampled whole: each resample draws `count`
    /// indices with replacement and hands them to `statistic`, which reads
    /// every series at those indices.
    ///
    /// Why whole observations: when each observation measured several
    /// things together (a round of `scaling --family` samples every size
    /// back to back), a slow spell moves them all; resampling them together
    /// keeps that pairing, so a ratio between them carries only the noise
    /// the pairing does not cancel.
    /// - Parameter statistic: the statistic of one resample, or nil where it
    ///   is undefined there (a time of 0 in a ratio).
    /// - Returns: nil below two observations, or when fewer than half the
    ///   resamples give a value.
    /// - Complexity: O(B · (n + the statistic's cost)) for B resamples.
    public static func interval(count: Int, level: Double = 0.95, resamples: Int = defaultResamples,
                                seed: UInt64 = 0x1a70_b3c5, statistic: ([Int]) -> Double?) -> (low: Double, high: Double)? {
        guard count >= 2 else { return nil }
        var generator = SplitMix(seed: seed)
        var values: [Double] = []
        values.reserveCapacity(resamples)
        var indices = [Int](repeating: 0, count: count)
        for _ in 0..<max(1, resamples) {
            for i in 0..<count { indices[i] = Int(generator.next() % UInt64(count)) }
            if let v = statistic(indices), v.isFinite { values.append(v) }
        }
        guard values.count * 2 >= max(1, resamples) else { return nil }
        values.sort()
        return percentileEnds(sorted: values, level: level)
    }

    /// The ends of the central `level` of sorted resampled statistics (non-empty).
    static func percentileEnds(sorted values: [Double], level: Double) -> (low: Double, high: Double) {
        let tail = (1 - level) / 2
        let low = values[max(0, min(values.count - 1, Int((tail * Double(values.count)).rounded(.down))))]
        let high = values[max(0, min(values.count - 1, Int(((1 - tail) * Double(values.count)).rounded(.up)) - 1))]
        return (low, high)
    }
}

/// The sample standard deviation (n - 1); 0 below two values.
public func standardDeviation(_ values: [Double]) -> Double {
    guard values.count >= 2 else { return 0 }
    let mean = values.reduce(0, +) / Double(values.count)
    return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
}
