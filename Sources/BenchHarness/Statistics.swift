/// Summary statistics of repeated timings, hyperfine/criterion style.
public struct TimingSummary: Hashable, Sendable {
    public var minimum: Double
    public var median: Double
    public var p90: Double
    public var maximum: Double
    public var count: Int

    /// Nil for no samples. p90 is the nearest-rank 90th percentile.
    public init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let s = samples.sorted()
        minimum = s[0]
        maximum = s[s.count - 1]
        median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        let rank = Int((0.9 * Double(s.count)).rounded(.up))
        p90 = s[max(0, min(s.count - 1, rank - 1))]
        count = s.count
    }
}
