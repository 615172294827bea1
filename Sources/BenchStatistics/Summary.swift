/// Summary statistics of repeated timings, hyperfine/criterion style.
///
/// Each sample is one measurement of a phase: with batching (the harness runs
/// a phase many times per sample until a sample lasts long enough), the mean
/// time of one operation over the batch.
public struct TimingSummary: Hashable, Sendable {
    public var minimum: Double
    public var median: Double
    /// The nearest-rank 90th percentile; reported only from 10 samples on
    /// (below that it is the maximum under another name).
    public var p90: Double?
    public var maximum: Double
    public var count: Int

    /// Nil for no samples.
    /// - Complexity: O(n log n) for n samples.
    public init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let s = samples.sorted()
        minimum = s[0]
        maximum = s[s.count - 1]
        median = Self.median(sorted: s)
        count = s.count
        if s.count >= 10 {
            let rank = Int((0.9 * Double(s.count)).rounded(.up))
            p90 = s[max(0, min(s.count - 1, rank - 1))]
        } else {
            p90 = nil
        }
    }

    /// The median of sorted values (the mean of the middle two for an even count).
    /// - Precondition: not empty (callers check; an empty array gives NaN, not a trap).
    public static func median(sorted s: [Double]) -> Double {
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
